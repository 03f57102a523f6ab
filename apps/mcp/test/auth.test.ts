import { describe, expect, it } from 'vitest';
import { generateApiKey, revokeKeyByOperator, setProjectActiveByOperator } from '@mmw/core';
import { executeSqlOn, withSystem } from '@mmw/db';
import { connectMcp } from '@mmw/test-support';
import { useMcp, type Rec } from './fixtures.ts';

const f = useMcp('auth-co', 'main');

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

async function post(authorization: string | undefined, body: unknown = initialize): Promise<Response> {
  return fetch(f.mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(authorization === undefined ? {} : { authorization }),
    },
    body: JSON.stringify(body),
  });
}

describe('key authentication', () => {
  it.each([
    ['missing', undefined],
    ['not bearer', 'Basic abc'],
    ['malformed', 'Bearer mmw_short'],
    ['bad checksum', `Bearer ${generateApiKey().key.slice(0, -1)}0`],
    ['unknown but well formed', `Bearer ${generateApiKey().key}`],
  ])('answers 401 with WWW-Authenticate for a %s key', async (_name, authorization) => {
    const response = await post(authorization);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('refuses a revoked key at once', async () => {
    const issued = await f.mcp.key('auth-co', 'main');
    expect((await post(`Bearer ${issued.key}`)).status).toBe(200);
    await revokeKeyByOperator(f.db.database.db, issued.prefix);
    expect((await post(`Bearer ${issued.key}`)).status).toBe(401);
  });

  it('records when a key was last used, at most once a minute, and never for a revoked key', async () => {
    const issued = await f.mcp.key('auth-co', 'main');
    const lastUsed = async () => {
      const [row] = await f.db.query<{ last_used_at: Date | null }>('select last_used_at from api_keys where id = $1', [
        issued.keyId,
      ]);
      return row?.last_used_at ?? null;
    };
    expect(await lastUsed()).toBeNull();
    expect((await post(`Bearer ${issued.key}`)).status).toBe(200);
    const first = await lastUsed();
    expect(first).not.toBeNull();
    expect((await post(`Bearer ${issued.key}`)).status).toBe(200);
    expect(await lastUsed()).toEqual(first);
    // Two minutes ago: the next call writes it again.
    await f.db.query(`update api_keys set last_used_at = now() - interval '2 minutes' where id = $1`, [issued.keyId]);
    const aged = await lastUsed();
    expect((await post(`Bearer ${issued.key}`)).status).toBe(200);
    expect((await lastUsed())?.getTime()).toBeGreaterThan(aged?.getTime() ?? 0);
    await f.db.query(`update api_keys set last_used_at = null where id = $1`, [issued.keyId]);
    await revokeKeyByOperator(f.db.database.db, issued.prefix);
    expect((await post(`Bearer ${issued.key}`)).status).toBe(401);
    expect(await lastUsed()).toBeNull();
  });

  it('answers at once when another transaction holds the key row, and records the use on a later call', async () => {
    const issued = await f.mcp.key('auth-co', 'main');
    // As a revocation or a label change would, until its commit.
    const status = await withSystem(f.db.database.db, async (tx) => {
      await executeSqlOn(tx)('select 1 from api_keys where id = $1 for no key update', [issued.keyId]);
      const response = await fetch(f.mcp.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${issued.key}`,
        },
        body: JSON.stringify(initialize),
        signal: AbortSignal.timeout(5_000),
      });
      return response.status;
    });
    expect(status).toBe(200);
    const lastUsed = async () =>
      (await f.db.query<{ at: Date | null }>('select last_used_at as at from api_keys where id = $1', [issued.keyId]))[0]
        ?.at ?? null;
    expect(await lastUsed()).toBeNull();
    expect((await post(`Bearer ${issued.key}`)).status).toBe(200);
    expect(await lastUsed()).not.toBeNull();
  });

  it("gives the spec's error when the key's project is inactive", async () => {
    const issued = await f.mcp.key('auth-co', 'paused');
    const client = await connectMcp(f.mcp.url, issued.key);
    await client.ok('remember', { content: 'before the pause' });
    await setProjectActiveByOperator(f.db.database.db, { account: 'auth-co', project: 'paused', active: false });
    for (const [tool, args] of [
      ['remember', { content: 'x' }],
      ['search', { query: 'x' }],
      ['forget', { id: crypto.randomUUID() }],
      ['validate_memory', { source_id: 'a', current_source_hash: 'b' }],
    ] as const) {
      const outcome = await client.call(tool, args);
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toBe('bound project is missing, inactive, or outside tenant');
    }
    await setProjectActiveByOperator(f.db.database.db, { account: 'auth-co', project: 'paused', active: true });
    expect((await client.call('search', { query: 'pause' })).isError).toBe(false);
    await client.close();
  });
});

describe('projects and workspaces', () => {
  it("refuses another project's workspace with the spec's 403 text", async () => {
    const other = await connectMcp(f.mcp.url, (await f.mcp.key('auth-co', 'frontend')).key);
    await f.client.ok('remember', { content: 'main project secret plan', workspace: 'roadmap' });
    const read = await other.call('search', { query: 'plan', workspace: 'roadmap' });
    expect(read.text).toBe('403 Forbidden: workspace access denied for project');
    const write = await other.call('remember', { content: 'sneaky', workspace: 'roadmap' });
    expect(write.text).toBe('403 Forbidden: workspace access denied for project');
    await other.close();
  });

  it('gives every project its own default workspace', async () => {
    const other = await connectMcp(f.mcp.url, (await f.mcp.key('auth-co', 'mobile')).key);
    await other.ok('remember', { content: 'mobile uses expo' });
    const mine = await f.client.ok<{ result: Rec[] }>('search', { query: 'expo' }).catch(() => ({ result: [] }));
    expect(mine.result).toEqual([]);
    const theirs = await other.ok<{ result: Rec[] }>('search', { query: 'expo' });
    expect(theirs.result).toHaveLength(1);
    await other.close();
  });

  it("never shows another account's records", async () => {
    const stranger = await connectMcp(f.mcp.url, (await f.mcp.key('other-co', 'main')).key);
    const rec = await f.client.ok<Rec>('remember', { content: 'acme launch date is friday' });
    await stranger.ok('remember', { content: 'unrelated' });
    const found = await stranger.ok<{ result: Rec[] }>('search', { query: 'launch friday' });
    expect(found.result).toEqual([]);
    const forget = await stranger.call('forget', { id: rec.id });
    expect(forget.text).toContain('not found');
    const derived = await stranger.call('remember', { content: 'summary', derived_from: [rec.id] });
    expect(derived.text).toContain('do not exist');
    expect((await f.client.ok<{ result: Rec[] }>('search', { query: 'launch' })).result).toHaveLength(1);
    await stranger.close();
  });
});
