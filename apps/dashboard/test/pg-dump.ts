import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Every row of the database as `pg_dump --data-only` writes it: what a backup of it would hold. */
export async function dumpData(url: string): Promise<string> {
  const { stdout } = await run('pg_dump', ['--data-only', '--no-owner', url], { timeout: 60_000, maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}
