import { buildWebIfStale } from '../scripts/build-web.ts';

export default async function setup(): Promise<void> {
  await buildWebIfStale();
}
