import { spawnSync } from 'node:child_process';
import { repoRoot } from '@mmw/test-support';

/**
 * The tests of the build output run on a fresh `pnpm build` (turbo's cache makes a repeat quick).
 * pnpm is the one that runs the tests when there is one (turbo needs it on its way), npx's otherwise.
 */
export default function setup(): void {
  const pnpm = process.env.npm_execpath?.includes('pnpm')
    ? [process.execPath, process.env.npm_execpath]
    : ['npx', '--yes', 'pnpm@10.34.9'];
  const [command = 'npx', ...args] = pnpm;
  const result = spawnSync(command, [...args, 'build', '--output-logs=errors-only'], {
    cwd: repoRoot,
    stdio: 'inherit',
    timeout: 600_000,
  });
  if (result.status !== 0) throw new Error(`pnpm build failed (exit ${String(result.status)})`);
}
