import { spawn } from 'node:child_process';
import { open, readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createTestDatabase,
  repoRoot,
  type McpTestClient,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';
import { agentDirs, agentEnv, agentMain, runAgent, startProxy, type AgentDirs } from './agent-fixture.ts';
import { claudeFile, claudeLine, codexFile, codexLines, writeFixture } from './session-fixtures.ts';

let db: TestDatabase;
let mcp: RunningMcp;
let key: string;
let client: McpTestClient;

beforeAll(async () => {
  db = await createTestDatabase();
  mcp = await startMcp(db.database);
  key = (await mcp.key('acme', 'backend')).key;
  client = await connectMcp(mcp.url, key);
});

afterAll(async () => {
  await client.close();
  await mcp.close();
  await db.drop();
});

const storedKeys = async () =>
  (
    await db.query<{ message_key: string }>('select message_key from session_messages order by message_key')
  ).map((row) => row.message_key);

async function consented(dirs: AgentDirs, env: Record<string, string>) {
  await writeFixture(`${dirs.home}/consent.json`, JSON.stringify({ consented: true }));
  return env;
}

/** Runs `mmw-agent sync`, sampling its peak resident memory from the kernel while it runs. */
async function measuredSync(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', agentMain, 'sync'], { cwd: repoRoot, env });
  let stdout = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  let peakKb = 0;
  const sampler = setInterval(() => {
    void readFile(`/proc/${child.pid}/status`, 'utf8')
      .then((status) => {
        const hwm = /VmHWM:\s+(\d+) kB/.exec(status);
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      })
      .catch(() => {});
  }, 25);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  return { code, stdout, peakKb };
}

describe('sync under faults', () => {
  it('resumes after the agent is killed mid-upload: nothing lost, nothing doubled', async () => {
    const dirs = await agentDirs();
    try {
      const lines = Array.from({ length: 30 }, (_, i) =>
        claudeLine(`r-${i}`, i, `resume note number ${i} about the osprey`),
      );
      await writeFixture(claudeFile(dirs), `${lines.join('\n')}\n`);
      const spawned: { child?: ReturnType<typeof spawn> } = {};
      let uploads = 0;
      // The third batch reaches the server and is stored; the agent dies before it hears so.
      const proxy = await startProxy(mcp.url, ({ path }) => {
        if (!path.startsWith('/sessions/upload')) return false;
        uploads++;
        if (uploads !== 3) return false;
        spawned.child?.kill('SIGKILL');
        return true;
      });
      const env = await consented(dirs, agentEnv(dirs, proxy.url, key, { MMW_AGENT_BATCH_MESSAGES: '5' }));
      const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', agentMain, 'sync'], { cwd: repoRoot, env });
      spawned.child = child;
      const killed = await new Promise<NodeJS.Signals | null>((resolve) =>
        child.on('close', (_code, signal) => resolve(signal)),
      );
      await proxy.close();
      expect(killed).toBe('SIGKILL');
      expect(await storedKeys()).toHaveLength(15);
      const cursors = JSON.parse(await readFile(`${dirs.home}/cursors.json`, 'utf8')) as Record<
        string,
        { messages: number }
      >;
      expect(cursors[claudeFile(dirs)]?.messages).toBe(10);

      const resumed = await runAgent(
        ['sync'],
        agentEnv(dirs, mcp.url, key, { MMW_AGENT_BATCH_MESSAGES: '5' }),
      );
      expect(resumed.stdout).toMatch(/1 uploaded, 20 messages/);
      const keys = await storedKeys();
      expect(keys).toHaveLength(30);
      expect(new Set(keys).size).toBe(30);
      const found = await client.ok<{ result: unknown[] }>('search_sessions', { query: 'osprey', limit: 50 });
      expect(found.result).toHaveLength(30);
    } finally {
      await dirs.remove();
    }
  });

  it('skips a malformed line, a binary .jsonl and a 200 MB line, reports them, and reads in bounded memory', async () => {
    const dirs = await agentDirs();
    try {
      const codex = codexLines();
      await writeFixture(
        codexFile(dirs),
        `${codex.slice(0, 3).join('\n')}\n{"timestamp": not json\n${codex.slice(3).join('\n')}\n`,
      );
      await writeFixture(
        `${dirs.claude}/projects/-home-dev-x/binary.jsonl`,
        Buffer.from([0x7b, 0x00, 0xff, 0xfe, 0x00, 0x0a, 0x89, 0x50, 0x4e, 0x47]),
      );
      // 200 MB on one line, then a message line.
      const big = `${dirs.claude}/projects/-home-dev-x/big.jsonl`;
      await writeFixture(big, '{"type":"user","message":{"role":"user","content":"');
      const handle = await open(big, 'a');
      const chunk = Buffer.alloc(8 * 1024 * 1024, 'a');
      for (let i = 0; i < 25; i++) await handle.write(chunk);
      await handle.write(`"}}\n${claudeLine('b-1', 1, 'after the huge line: the cormorant')}\n`);
      await handle.close();

      const env = await consented(dirs, agentEnv(dirs, mcp.url, key));
      // The same program over empty folders: what it needs without the files.
      const empty = await measuredSync({
        ...env,
        CLAUDE_CONFIG_DIR: `${dirs.root}/none`,
        CODEX_HOME: `${dirs.root}/none`,
      });
      const { code, stdout, peakKb } = await measuredSync(env);
      expect(empty.peakKb).toBeGreaterThan(0);
      expect(peakKb - empty.peakKb).toBeLessThan(64 * 1024);
      expect(code).toBe(0);
      expect(stdout).toMatch(/3 files found, 2 uploaded/);
      expect(stdout).toMatch(/not a text file, skipped/);

      const status = JSON.parse(await readFile(`${dirs.home}/sync-status.json`, 'utf8')) as {
        last_error: string;
      };
      expect(status.last_error).toMatch(/binary\.jsonl: not a text file, skipped/);
      expect(status.last_error).toMatch(/big\.jsonl: a line longer than 8 MB skipped/);
      expect(status.last_error).toMatch(/a malformed line skipped/);
      expect(
        (await client.ok<{ result: unknown[] }>('search_sessions', { query: 'cormorant' })).result,
      ).toHaveLength(1);
      expect(
        (await client.ok<{ result: unknown[] }>('search_sessions', { query: 'pelican' })).result,
      ).toHaveLength(3);
    } finally {
      await dirs.remove();
    }
  });
});
