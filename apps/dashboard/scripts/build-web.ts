import { build } from 'vite';
import { isWebBuildStale, stampWebBuild, webSourceDir } from '../src/web-build.ts';
import { join } from 'node:path';

/** Builds the web UI into dist/web when it is missing or built from other sources; silent otherwise. */
export async function buildWebIfStale(): Promise<boolean> {
  if (!isWebBuildStale()) return false;
  process.stderr.write('Building the dashboard web UI…\n');
  await build({ configFile: join(webSourceDir, 'vite.config.ts'), logLevel: 'warn' });
  stampWebBuild();
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildWebIfStale();
}
