import { spawn } from 'node:child_process';
import { repoRoot } from '@mmw/test-support';
import { agentMain } from './agent-fixture.ts';

const quote = (arg: string) => `'${arg.replaceAll("'", "'\\''")}'`;

/**
 * Runs an agent command on a real pseudo-terminal (util-linux `script`), types `answer` once the
 * question shows, and resolves with the exit code and what the terminal showed.
 */
export function onTerminal(
  args: string[],
  env: Record<string, string>,
  answer: string,
  question = /Type y or yes/,
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, '--conditions=development', '--import', 'tsx', agentMain, ...args].map(quote).join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: repoRoot, env });
  let output = '';
  let answered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    if (!answered && question.test(output)) {
      answered = true;
      child.stdin.write(`${answer}\n`);
    }
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    }),
  );
}
