import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';
import { agentDirs, agentEnv, connectAgent, startProxy, type AgentDirs } from './agent-fixture.ts';

let db: TestDatabase;
let mcp: RunningMcp;
let key: string;
let dirs: AgentDirs;

beforeAll(async () => {
  db = await createTestDatabase();
  mcp = await startMcp(db.database);
  key = (await mcp.key('acme', 'backend')).key;
  dirs = await agentDirs();
});

afterAll(async () => {
  await mcp.close();
  await db.drop();
  await dirs.remove();
});

type Result = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the stdio server', () => {
  it("lists the server's tools plus mmw_sync_status and forwards calls with the key", async () => {
    const client = await connectAgent(agentEnv(dirs, mcp.url, key));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        'forget',
        'mmw_sync_status',
        'remember',
        'search',
        'search_sessions',
        'validate_memory',
      ]);
      const stored = await call(client, 'remember', { content: 'The staging host is called heron-7' });
      expect(stored.isError).not.toBe(true);
      const found = await call(client, 'search', { query: 'heron' });
      const result = (found.structuredContent?.result ?? []) as Array<{ content: string }>;
      expect(result.map((record) => record.content)).toEqual(['The staging host is called heron-7']);
      const status = await call(client, 'mmw_sync_status');
      expect(status.structuredContent).toMatchObject({
        consented: false,
        server_reachable: true,
        files_found: 0,
        last_error: null,
      });
    } finally {
      await client.close();
    }
  });

  it('retries a write whose answer was lost with the same X-Idempotency-Key: stored once', async () => {
    let dropped = false;
    const proxy = await startProxy(mcp.url, ({ body }) => {
      if (dropped || !body.includes('"tools/call"')) return false;
      dropped = true;
      return true;
    });
    const client = await connectAgent(agentEnv(dirs, proxy.url, key));
    try {
      const stored = await call(client, 'remember', { content: 'The retried fact about kestrel-9' });
      expect(stored.isError).not.toBe(true);
      const calls = proxy.seen.filter((request) => request.body.includes('"tools/call"'));
      expect(calls).toHaveLength(2);
      expect(calls[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      expect(calls[1]?.idempotencyKey).toBe(calls[0]?.idempotencyKey);
      const rows = await db.query("select id from records where content like '%kestrel-9%'");
      expect(rows).toHaveLength(1);
    } finally {
      await client.close();
      await proxy.close();
    }
  });

  it('answers a clear tool error when the server cannot be reached, and keeps serving', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const client = await connectAgent(agentEnv(dirs, url, key, { MMW_AGENT_RETRY_SECONDS: '1' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('mmw_sync_status');
      const failed = await call(client, 'search', { query: 'anything' });
      expect(failed.isError).toBe(true);
      expect(failed.content[0]?.text).toMatch(
        /^MMW server unreachable at http:\/\/127\.0\.0\.1:\d+ .* the call was not completed/,
      );
      const status = await call(client, 'mmw_sync_status');
      expect(status.structuredContent).toMatchObject({ server_reachable: false });
    } finally {
      await client.close();
    }
  });
});
