import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One process owns the embedded data directory; others (the CLI) read this to say so plainly. */
export function lockPath(dataDir: string): string {
  return join(dataDir, 'server.pid');
}

export function runningServerPid(dataDir: string): number | undefined {
  const path = lockPath(dataDir);
  if (!existsSync(path)) return undefined;
  const pid = Number(readFileSync(path, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

export function takeLock(dataDir: string): () => void {
  const other = runningServerPid(dataDir);
  if (other !== undefined && other !== process.pid) {
    throw new Error(
      `MMW is already running on the embedded database in ${dataDir} (pid ${other}); stop it first.`,
    );
  }
  writeFileSync(lockPath(dataDir), String(process.pid));
  return () => rmSync(lockPath(dataDir), { force: true });
}
