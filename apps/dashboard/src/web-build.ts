import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageDir = fileURLToPath(new URL('..', import.meta.url));
export const webSourceDir = join(packageDir, 'web');
export const webBuildDir = join(packageDir, 'dist', 'web');
const stampFile = join(webBuildDir, '.source-hash');

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : [path];
    });
}

/** A hash of everything the web build reads: its sources and the API types it imports. */
export function webSourceHash(): string {
  const hash = createHash('sha256');
  for (const path of [...files(webSourceDir), ...files(join(packageDir, 'src'))]) {
    hash.update(relative(packageDir, path)).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

/** True when dist/web is missing or was built from other sources. */
export function isWebBuildStale(): boolean {
  if (!existsSync(join(webBuildDir, 'index.html')) || !existsSync(stampFile)) return true;
  return readFileSync(stampFile, 'utf8').trim() !== webSourceHash();
}

export function stampWebBuild(): void {
  writeFileSync(stampFile, `${webSourceHash()}\n`);
}
