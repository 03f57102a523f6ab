import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { rawToolCall } from './raw-call.ts';

let testDb: TestDatabase;
let mcp: RunningMcp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  mcp = await startMcp(testDb.database, {
    env: { MMW_KEY_CALLS_PER_MINUTE: '3', MMW_PROJECT_CALLS_PER_MINUTE: '5', MMW_RECORD_LIMIT: '5' },
  });
});
afterAll(async () => {
  await mcp.close();
  await testDb.drop();
});

describe('call limits', () => {
  it('refuses the call past the per-key limit with Retry-After and RateLimit headers', async () => {
    const { key } = await mcp.key('limits-co', 'a');
    const seen = [];
    for (let i = 0; i < 4; i++)
      seen.push(await rawToolCall(mcp.url, key, 'search', { query: '' }).catch(() => undefined));
    const [first, , third, fourth] = seen;
    expect(first?.headers.get('ratelimit')).toMatch(/limit=3, remaining=2/);
    expect(third?.text).not.toBe('MCP rate limit exceeded');
    expect(fourth?.isError).toBe(true);
    expect(fourth?.text).toBe('MCP rate limit exceeded');
    expect(Number(fourth?.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts tool calls only: a client connecting and listing the tools spends none of the limit', async () => {
    const { key } = await mcp.key('limits-co', 'd');
    const client = new Client({ name: 'limits-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(mcp.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    });
    await client.connect(transport);
    for (let i = 0; i < 3; i++) await client.listTools();
    await client.close();
    const seen = [];
    for (let i = 0; i < 4; i++) seen.push(await rawToolCall(mcp.url, key, 'search', { query: '' }));
    expect(seen[0]?.headers.get('ratelimit')).toMatch(/limit=3, remaining=2/);
    expect(seen.map((call) => call.text === 'MCP rate limit exceeded')).toEqual([false, false, false, true]);
  });

  it('refuses calls past the per-project limit, whichever key makes them', async () => {
    const one = await mcp.key('limits-co', 'b');
    const two = await mcp.key('limits-co', 'b');
    const outcomes = [];
    for (const key of [one.key, one.key, one.key, two.key, two.key, two.key]) {
      outcomes.push(await rawToolCall(mcp.url, key, 'remember', { content: 'counted call', workspace: 'w' }));
    }
    expect(outcomes.slice(0, 5).every((o) => !o.isError || o.text.startsWith('record limit'))).toBe(true);
    expect(outcomes[5]?.text).toBe('project call limit exceeded');
  });

  it("does not count a call its key's limit refused toward the project's limit", async () => {
    const one = await mcp.key('limits-co', 'c');
    const two = await mcp.key('limits-co', 'c');
    const calls = [one.key, one.key, one.key, one.key, two.key, two.key, two.key];
    const outcomes = [];
    for (const key of calls) outcomes.push(await rawToolCall(mcp.url, key, 'search', { query: '' }));
    const limited = ['MCP rate limit exceeded', 'project call limit exceeded'];
    expect(outcomes.map((o) => (limited.includes(o.text) ? o.text : 'called'))).toEqual([
      'called',
      'called',
      'called',
      'MCP rate limit exceeded',
      'called',
      'called',
      'project call limit exceeded',
    ]);
  });
});

describe("the plan's record limit", () => {
  it('stores exactly the records left when 200 writes race for 5 places', async () => {
    // The Guard's queue holds every racer, so each write meets the record limit, not an overload.
    const racer = await startMcp(testDb.database, { env: { MMW_RECORD_LIMIT: '5', MMW_GUARD_QUEUE: '256' } });
    const { key, accountId } = await racer.key('record-limit-co', 'main');
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rawToolCall(racer.url, key, 'remember', { content: `racing write ${i}` }),
      ),
    );
    const stored = outcomes.filter((o) => !o.isError);
    expect(stored).toHaveLength(5);
    expect(outcomes.filter((o) => o.text.startsWith('record limit reached'))).toHaveLength(195);
    const rows = await testDb.query<{ n: string }>(
      'select count(*) as n from records where account_id = $1',
      [accountId],
    );
    expect(Number(rows[0]?.n)).toBe(5);

    // Forgetting frees a place.
    const first = stored[0]?.structured?.id;
    await rawToolCall(racer.url, key, 'forget', { id: first });
    expect((await rawToolCall(racer.url, key, 'remember', { content: 'after forget' })).isError).toBe(false);
    expect((await rawToolCall(racer.url, key, 'remember', { content: 'one too many' })).text).toMatch(
      /^record limit reached/,
    );
    await racer.close();
  });
});
