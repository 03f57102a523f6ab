import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '@mmw/core';
import { connectMcp, createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';

// Failed authentications at the MCP door are limited per client address (decision 0038): random
// well-formed keys stop reaching the database, while a key that address has used goes on working.
const LIMIT = 5;
let db: TestDatabase;
let behindProxy: RunningMcp;
let direct: RunningMcp;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};

async function post(url: string, key: string, address?: string): Promise<Response> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...(address === undefined ? {} : { 'x-forwarded-for': address }),
    },
    body: JSON.stringify(initialize),
  });
  return response;
}

beforeAll(async () => {
  db = await createTestDatabase();
  const env = { MMW_AUTH_FAILURES_PER_MINUTE: String(LIMIT) };
  behindProxy = await startMcp(db.database, { env: { ...env, TRUST_PROXY: 'loopback' } });
  direct = await startMcp(db.database, { env });
});
afterAll(async () => {
  await behindProxy.close();
  await direct.close();
  await db.drop();
});

describe('failed MCP authentications per address', () => {
  it('answers 429 with Retry-After once an address has used up its failures; a key it used still works', async () => {
    const address = '203.0.113.7';
    const used = await behindProxy.key('limit-co', 'main');
    const unused = await behindProxy.key('limit-co', 'main');
    // The person at this address connects with their key before the guessing starts.
    const person = await connectMcp(behindProxy.url, used.key, { 'x-forwarded-for': address });
    await person.ok('remember', { content: 'the staging host is app-staging' });

    for (let i = 0; i < LIMIT; i += 1) {
      const response = await post(behindProxy.url, generateApiKey().key, address);
      expect(response.status).toBe(401);
    }
    const refused = await post(behindProxy.url, generateApiKey().key, address);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = (await refused.json()) as { error: { message: string } };
    expect(body.error.message).toBe('too many failed authentications from this address; try again later');

    // The key this address used before still works, through a real MCP client.
    const found = await person.ok<{ result: Array<{ content: string }> }>('search', { query: 'staging host' });
    expect(found.result.map((record) => record.content)).toContain('the staging host is app-staging');
    await person.close();
    const again = await connectMcp(behindProxy.url, used.key, { 'x-forwarded-for': address });
    await again.close();

    // A good key never seen from this address waits like any other until the window ends.
    expect((await post(behindProxy.url, unused.key, address)).status).toBe(429);
    // Another address is not affected, nor is the unused key from there.
    expect((await post(behindProxy.url, generateApiKey().key, '198.51.100.9')).status).toBe(401);
    expect((await post(behindProxy.url, unused.key, '198.51.100.9')).status).toBe(200);
  });

  it('counts an IPv6 client by its /64', async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await post(behindProxy.url, generateApiKey().key, `2001:db8:1:2::${(i + 1).toString(16)}`)).status).toBe(401);
    }
    expect((await post(behindProxy.url, generateApiKey().key, '2001:db8:1:2:ffff::1')).status).toBe(429);
    expect((await post(behindProxy.url, generateApiKey().key, '2001:db8:1:3::1')).status).toBe(401);
  });

  it('without TRUST_PROXY, X-Forwarded-For does not choose the bucket: the peer address does', async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      expect((await post(direct.url, generateApiKey().key, `192.0.2.${i + 1}`)).status).toBe(401);
    }
    expect((await post(direct.url, generateApiKey().key, '192.0.2.200')).status).toBe(429);
  });
});
