import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inheritedEnv } from './env.ts';

export const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Node itself, with tsx as its loader (resolved from the repository's root, the processes' working
 * directory), as `pnpm start` runs the server. Not the tsx command: it runs the script in a child
 * process and, when that child has not told it within 30 ms that a signal arrived (its event loop
 * busy), kills it, so a SIGTERM could end a server before its own shutdown ran.
 */
const node = (script: string, args: string[], options: RunOptions = {}) =>
  options.built
    ? ([process.execPath, [script, ...args]] as const)
    : ([process.execPath, ['--conditions=development', '--import', 'tsx', script, ...args]] as const);

export interface RunOptions {
  /** A script of the build output (dist/…), run by plain node as production runs it. */
  built?: boolean;
  /** Written to the script's standard input, which is then closed (runScript only). */
  input?: string;
}

export interface RunningProcess {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves with the first match of pattern in stdout, or rejects when the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  stop(): Promise<number | null>;
}

/** Starts one of the repository's TypeScript entry points as a real process. */
export function startScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: RunOptions = {},
): RunningProcess {
  const child = spawn(...node(script, args, options), {
    cwd: repoRoot,
    env: { ...inheritedEnv, ...env },
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    waitFor: (pattern, timeoutMs = 60_000) =>
      new Promise((resolve, reject) => {
        const started = Date.now();
        const timer = setInterval(() => {
          const match = out.match(pattern);
          if (match) {
            clearInterval(timer);
            resolve(match);
          } else if (child.exitCode !== null || Date.now() - started > timeoutMs) {
            clearInterval(timer);
            reject(new Error(`did not see ${pattern} in:\n${out}`));
          }
        }, 50);
      }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs a script to its end; resolves with its exit code and output. */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
  options: RunOptions = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(...node(script, args, options), { cwd: repoRoot, env: { ...inheritedEnv, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  if (options.input !== undefined) {
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, stdout, stderr };
}
