import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { inheritedEnv, repoRoot } from '@mmw/test-support';

export const agentMain = join(repoRoot, 'apps/agent/src/main.ts');

export interface AgentDirs {
  root: string;
  home: string;
  claude: string;
  codex: string;
  remove(): Promise<void>;
}

/** A temporary folder for the agent's state and the two tools' history. */
export async function agentDirs(): Promise<AgentDirs> {
  const root = await mkdtemp(join(tmpdir(), 'mmw-agent-test-'));
  return {
    root,
    home: join(root, 'agent'),
    claude: join(root, 'claude'),
    codex: join(root, 'codex'),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export function agentEnv(
  dirs: AgentDirs,
  url: string,
  key: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...inheritedEnv,
    MMW_URL: url,
    MMW_KEY: key,
    MMW_AGENT_HOME: dirs.home,
    CLAUDE_CONFIG_DIR: dirs.claude,
    CODEX_HOME: dirs.codex,
    ...extra,
  };
}

/** The MCP SDK's stdio client, connected to the agent run as a real process. */
export async function connectAgent(
  env: Record<string, string>,
  command = [process.execPath, '--conditions=development', '--import', 'tsx', agentMain],
) {
  const [file = process.execPath, ...args] = command;
  const transport = new StdioClientTransport({ command: file, args, cwd: repoRoot, env, stderr: 'pipe' });
  const client = new Client({ name: 'mmw-agent-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** Runs an agent command to its end, with the given standard input. */
export function runAgent(
  args: string[],
  env: Record<string, string>,
  input = '',
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', agentMain, ...args], { cwd: repoRoot, env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

export interface Proxy {
  url: string;
  /** Requests seen, with their path and idempotency key. */
  seen: Array<{ path: string; idempotencyKey: string | undefined; body: string }>;
  close(): Promise<void>;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += (chunk as Buffer).toString();
  return body;
}

/**
 * An HTTP proxy in front of the server; `drop` decides, for each request after the server has
 * answered it, whether the answer is lost (the connection cut, as a network fault would).
 */
export async function startProxy(
  target: string,
  drop: (request: { path: string; body: string; index: number }) => boolean | Promise<boolean>,
): Promise<Proxy> {
  const seen: Proxy['seen'] = [];
  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const path = request.url ?? '/';
      const header = request.headers['x-idempotency-key'];
      seen.push({ path, idempotencyKey: typeof header === 'string' ? header : undefined, body });
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers[name] = value;
      const answer = await fetch(new URL(path, target), {
        method: request.method ?? 'GET',
        headers,
        body: request.method === 'POST' ? body : undefined,
      });
      const text = await answer.text();
      if (await drop({ path, body, index: seen.length - 1 })) {
        request.socket.destroy();
        return;
      }
      response.writeHead(answer.status, {
        'content-type': answer.headers.get('content-type') ?? 'application/json',
      });
      response.end(text);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
