import { execFile } from 'node:child_process';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestDatabase, type McpTestClient, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';
import { agentDirs, agentEnv, connectAgent, runAgent, type AgentDirs } from './agent-fixture.ts';
import {
  claudeFile,
  claudeLine,
  claudeLines,
  codexFile,
  codexLines,
  SECRET,
  writeFixture,
} from './session-fixtures.ts';
import { onTerminal } from './terminal.ts';

let db: TestDatabase;
let mcp: RunningMcp;
let key: string;
let dirs: AgentDirs;
let env: Record<string, string>;
let client: McpTestClient;

beforeAll(async () => {
  db = await createTestDatabase();
  mcp = await startMcp(db.database);
  key = (await mcp.key('acme', 'backend')).key;
  client = await connectMcp(mcp.url, key);
  dirs = await agentDirs();
  env = agentEnv(dirs, mcp.url, key);
  // A partial last line: the assistant is still writing it.
  await writeFixture(
    claudeFile(dirs),
    `${claudeLines().join('\n')}\n{"type":"user","message":{"role":"user","content":"half wri`,
  );
  await writeFixture(codexFile(dirs), `${codexLines().join('\n')}\n`);
});

afterAll(async () => {
  await client.close();
  await mcp.close();
  await db.drop();
  await dirs.remove();
});

const messageCount = async () =>
  Number((await db.query<{ n: string }>('select count(*) as n from session_messages'))[0]?.n);

interface Found {
  result: Array<{
    kind: string;
    role: string;
    snippet: string;
    project_path: string;
    session_id: string;
    at: string;
  }>;
}

describe('consent and upload', () => {
  it('uploads nothing before consent, and records none on an answer other than yes', async () => {
    const refused = await runAgent(['sync'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/run `mmw-agent consent` first/);
    const no = await onTerminal(['consent'], env, 'sure');
    expect(no.output).toMatch(/Claude Code: .*projects/);
    expect(no.output).toMatch(/redacted\s+on this computer|on this computer before anything is uploaded/);
    expect(no.output).toMatch(/No consent recorded/);
    expect((await runAgent(['sync'], env)).code).toBe(1);
    expect(await messageCount()).toBe(0);
  });

  it("records consent on yes typed in a terminal, then uploads both tools' sessions, redacted", async () => {
    const yes = await onTerminal(['consent'], env, 'yes');
    expect(yes.code).toBe(0);
    expect(yes.output).toMatch(/Consent recorded/);
    const synced = await runAgent(['sync'], env);
    expect(synced.stdout.trim().split('\n')).toHaveLength(1);
    expect(synced.stdout).toMatch(
      /^mmw-agent sync: 2 files found, 2 uploaded, 7 messages .* sent, 0 pending/,
    );
    expect(synced.code).toBe(0);

    const otter = await client.ok<Found>('search_sessions', { query: 'otter deploy' });
    expect(otter.result.map((hit) => hit.role)).toEqual(expect.arrayContaining(['user', 'assistant']));
    expect(otter.result[0]).toMatchObject({ kind: 'transcript_quote', project_path: '/home/dev/backend' });
    const token = await client.ok<Found>('search_sessions', { query: 'GITHUB_TOKEN' });
    expect(token.result[0]?.snippet).toMatch(/GITHUB_TOKEN=\[REDACTED:/);
    const pelican = await client.ok<Found>('search_sessions', { query: 'pelican' });
    expect(pelican.result.map((hit) => hit.snippet)).toEqual([
      expect.stringContaining('The pelican build fails because TS2304'),
      '[transcript quote] [tool call] shell: bash -lc npm run build:pelican',
      expect.stringContaining('Why does the pelican build fail on CI?'),
    ]);
    // The environment block Codex adds, the event_msg repeats and tool output are not uploaded.
    const rows = await db.query<{ content: string }>('select content from session_messages');
    expect(rows).toHaveLength(7);
    expect(rows.some((row) => /RAW-TOOL-OUTPUT-BLOB|environment_context|half wri/.test(row.content))).toBe(
      false,
    );

    const { stdout: dump } = await promisify(execFile)('pg_dump', ['--data-only', db.url], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(dump).toContain('pelican build fails');
    expect(dump).not.toContain(SECRET);
  });

  it('continues an appended file without sending again what was uploaded', async () => {
    const before = await messageCount();
    const audits = async () =>
      (await db.query("select 1 from audit_events where action = 'sessions.uploaded'")).length;
    const uploadsBefore = await audits();
    // The partial line is completed, and a new one follows.
    await appendFile(
      claudeFile(dirs),
      `tten"},"uuid":"c-5","timestamp":"2026-11-03T09:05:00.000Z","sessionId":"x"}\n${claudeLine('c-6', 6, 'Also rotate the heron certificate.')}\n`,
    );
    const synced = await runAgent(['sync'], env);
    expect(synced.stdout).toMatch(/2 files found, 2 uploaded, 2 messages/);
    expect(await messageCount()).toBe(before + 2);
    expect(await audits()).toBe(uploadsBefore + 1);
    const heron = await client.ok<Found>('search_sessions', { query: 'heron certificate' });
    expect(heron.result).toHaveLength(1);
    // Nothing new: nothing sent.
    expect((await runAgent(['sync'], env)).stdout).toMatch(/0 messages \(0 B\) sent/);
    expect(await audits()).toBe(uploadsBefore + 1);
  });

  it('starts over a rewritten file and stores its messages once', async () => {
    const before = await messageCount();
    const lines = (await readFile(claudeFile(dirs), 'utf8')).split('\n').filter((line) => line !== '');
    await writeFile(claudeFile(dirs), `${lines.slice(1).join('\n')}\n`);
    const synced = await runAgent(['sync'], env);
    expect(synced.code).toBe(0);
    expect(await messageCount()).toBe(before);
  });

  it('mmw_sync_status tells the stdio client what was uploaded; --revoke stops uploads', async () => {
    const agent = await connectAgent(env);
    try {
      const status = (await agent.callTool({ name: 'mmw_sync_status', arguments: {} })).structuredContent as
        | Record<string, unknown>
        | undefined;
      expect(status).toMatchObject({
        consented: true,
        server_reachable: true,
        files_found: 2,
        files_uploaded: 2,
        pending: 0,
        last_error: null,
      });
      expect(status?.messages_uploaded).toBeGreaterThanOrEqual(9);
      expect(typeof status?.last_sync_at).toBe('string');
    } finally {
      await agent.close();
    }
    expect((await runAgent(['consent', '--revoke'], env)).stdout).toMatch(/Consent withdrawn/);
    await appendFile(claudeFile(dirs), `${claudeLine('c-7', 7, 'After revoking: the ibis secret plan.')}\n`);
    expect((await runAgent(['sync'], env)).code).toBe(1);
    expect((await client.ok<Found>('search_sessions', { query: 'ibis' })).result).toHaveLength(0);
  });
});
