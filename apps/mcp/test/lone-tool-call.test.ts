import { describe, expect, it } from 'vitest';
import type { CallerAuthenticator, MemoryService, MemorySession } from '@mmw/core';
import { buildMcpApp } from '../src/mcp-app.ts';
import { useMcp } from './fixtures.ts';

// A lone tool call whose tool and arguments are valid is answered without the SDK's dispatch
// (lone-tool-call.ts); one with `_meta` in its params still goes through the SDK. Both must read
// the same to a client, byte for byte.
const f = useMcp('lone-co', 'main');

async function post(url: string, key: string, params: Record<string, unknown>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'call-1', method: 'tools/call', params }),
  });
}

/** The same call answered directly and (with an empty `_meta`) by the SDK. */
async function bothWays(name: string, args: Record<string, unknown>) {
  const direct = await post(f.mcp.url, f.key, { name, arguments: args });
  const bySdk = await post(f.mcp.url, f.key, { name, arguments: args, _meta: {} });
  return {
    direct: { status: direct.status, type: direct.headers.get('content-type'), body: await direct.text() },
    bySdk: { status: bySdk.status, type: bySdk.headers.get('content-type'), body: await bySdk.text() },
  };
}

describe('a lone tool call', () => {
  it('reads the same answered directly as answered by the SDK: a result, a tool error', async () => {
    await f.client.ok('remember', { content: 'the deploy key rotates every 90 days', fact_key: 'deploy-key' });
    const found = await bothWays('search', { query: 'deploy key' });
    expect(found.direct.status).toBe(200);
    expect(found.direct.body).toContain('the deploy key rotates every 90 days');
    expect(found.direct).toEqual(found.bySdk);

    const missing = await bothWays('forget', { id: '3d2b5c1e-0f6a-4f1e-9b7a-2a1c3e4d5f60' });
    expect(missing.direct.body).toContain('"isError":true');
    expect(missing.direct).toEqual(missing.bySdk);
  });

  it('leaves refused arguments and unknown tools to the SDK, with its texts', async () => {
    const wrong = await bothWays('remember', { content: 'wrong type', fact_key: 42 });
    expect(wrong.direct.body).toContain('Input validation error: Invalid arguments for tool remember');
    expect(wrong.direct).toEqual(wrong.bySdk);
    const unknown = await bothWays('drop_tables', {});
    expect(unknown.direct.body).toContain('Tool drop_tables not found');
    expect(unknown.direct).toEqual(unknown.bySdk);
  });

  it('with a member beside jsonrpc, id, method and params is refused at once, as the SDK refuses it', async () => {
    const response = await fetch(f.mcp.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${f.key}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'deploy key' } },
        extra: true,
      }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error?: { code?: number } };
    expect(body.error?.code).toBe(-32600);
  });
});

describe('a lone tool call whose result its output schema refuses', () => {
  it('runs once and is answered with the SDK\'s output validation error', async () => {
    let runs = 0;
    const session: MemorySession = {
      caller: { accountId: 'a', projectId: 'p', userId: 'u', keyId: 'k', source: 'agent' },
      projectActive: true,
      plan: 'self-hosted',
      subscription: undefined,
    };
    const app = await buildMcpApp({
      db: {} as never,
      authenticator: { authenticate: () => Promise.resolve({ ...session }) } as unknown as CallerAuthenticator,
      service: {
        remember: () => {
          runs += 1;
          return Promise.resolve({ id: 'not a record' });
        },
      } as unknown as MemoryService,
      logLevel: 'silent',
    });
    try {
      const url = `${await app.listen({ host: '127.0.0.1', port: 0 })}/mcp`;
      const response = await post(url, 'mmw_test', { name: 'remember', arguments: { content: 'a fact' } });
      const body = (await response.json()) as { result?: { isError?: boolean; content?: Array<{ text?: string }> } };
      expect(body.result?.isError).toBe(true);
      expect(body.result?.content?.[0]?.text).toMatch(/^Output validation error: Invalid structured content for tool remember/);
      expect(runs).toBe(1);
    } finally {
      await app.close();
    }
  });
});
