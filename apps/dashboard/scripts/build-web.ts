import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { isWebBuildStale, stampWebBuild, webSourceDir } from '../src/web-build.ts';

/** Builds the web UI into dist/web when it is missing or built from other sources; silent otherwise. */
export async function buildWebIfStale(): Promise<boolean> {
  if (!isWebBuildStale()) return false;
  process.stderr.write('Building the dashboard web UI…\n');
  await build({ configFile: join(webSourceDir, 'vite.config.ts'), logLevel: 'warn' });
  stampWebBuild();
  return true;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(resolve(entry)).href) {
  await buildWebIfStale();
}
