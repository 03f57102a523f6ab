import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ServerSettings } from './serve.ts';

const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const script = fileURLToPath(new URL('./serve.ts', import.meta.url));

export interface ServerProcess {
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** The process id, for CPU accounting. */
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Starts serve.ts as its own process, as a deployment runs the ingress apart from its clients. */
export async function startServer(settings: ServerSettings): Promise<ServerProcess> {
  // BENCH_PROFILE=DIR writes a CPU profile of each server process there (node's --cpu-prof).
  const profile = process.env.BENCH_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
    : [];
  const child = spawn(tsx, ['--conditions=development', ...profile, script], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      BENCH_SERVER: JSON.stringify(settings),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\S+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`bench server exited (${code}):\n${output}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
