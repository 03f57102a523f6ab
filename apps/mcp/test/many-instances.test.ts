import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionKey } from '@mmw/core';
import { createTestDatabase, startScript, type RunningProcess, type TestDatabase } from '@mmw/test-support';
import { rawToolCall } from './raw-call.ts';

let testDb: TestDatabase;
const ingresses: RunningProcess[] = [];
const urls: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  for (let i = 0; i < 2; i++) {
    const ingress = startScript('apps/mcp/src/main.ts', [], {
      DATABASE_URL: testDb.url,
      MCP_PORT: '0',
      LOG_LEVEL: 'silent',
      MMW_KEY_CALLS_PER_MINUTE: '100000',
      MMW_PROJECT_CALLS_PER_MINUTE: '100000',
      DATABASE_POOL_SIZE: '10',
      // Every racer waits for the Guard instead of being turned away as an overload.
      MMW_GUARD_QUEUE: '1000',
      MMW_GUARD_WAIT_MS: '120000',
    });
    ingresses.push(ingress);
    const [, url] = await ingress.waitFor(/listening on (http:\S+)/);
    if (url) urls.push(url);
  }
});

afterAll(async () => {
  await Promise.all(ingresses.map((ingress) => ingress.stop()));
  await testDb.drop();
});

/** Runs the calls with at most `width` under way at once. */
async function inParallel<T>(count: number, width: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array<T>(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await call(i);
      }
    }),
  );
  return results;
}

describe('two ingress processes on one database', () => {
  it('keep idempotency across both: 1,000 remembers over 50 keys store 50 records, one id per key', async () => {
    const { key, accountId } = await provisionKey(testDb.database.db, { account: 'multi-co', project: 'main' });
    const outcomes = await inParallel(1000, 100, (i) =>
      rawToolCall(urls[i % 2] ?? '', key, 'remember', { content: `fact number ${i % 50}` }, { 'x-idempotency-key': `key-${i % 50}` }),
    );
    expect(outcomes.filter((o) => o.isError).map((o) => o.text)).toEqual([]);
    const idsPerKey = new Map<number, Set<unknown>>();
    outcomes.forEach((o, i) => {
      const set = idsPerKey.get(i % 50) ?? new Set();
      set.add(o.structured?.id);
      idsPerKey.set(i % 50, set);
    });
    expect([...idsPerKey.values()].every((ids) => ids.size === 1)).toBe(true);
    const rows = await testDb.query<{ n: string }>('select count(*) as n from records where account_id = $1', [accountId]);
    expect(Number(rows[0]?.n)).toBe(50);
  }, 300_000);

  it('share call limits: a key gets exactly its limit across both', async () => {
    const limited = startScript('apps/mcp/src/main.ts', [], {
      DATABASE_URL: testDb.url,
      MCP_PORT: '0',
      LOG_LEVEL: 'silent',
      MMW_KEY_CALLS_PER_MINUTE: '40',
    });
    ingresses.push(limited);
    const [, limitedUrl] = await limited.waitFor(/listening on (http:\S+)/);
    const other = startScript('apps/mcp/src/main.ts', [], {
      DATABASE_URL: testDb.url,
      MCP_PORT: '0',
      LOG_LEVEL: 'silent',
      MMW_KEY_CALLS_PER_MINUTE: '40',
    });
    ingresses.push(other);
    const [, otherUrl] = await other.waitFor(/listening on (http:\S+)/);
    const { key } = await provisionKey(testDb.database.db, { account: 'multi-co', project: 'limits' });
    await rawToolCall(limitedUrl ?? '', key, 'remember', { content: 'seed' });
    const outcomes = await inParallel(100, 20, (i) =>
      rawToolCall((i % 2 === 0 ? limitedUrl : otherUrl) ?? '', key, 'search', { query: 'seed' }),
    );
    expect(outcomes.filter((o) => !o.isError)).toHaveLength(39);
    expect(outcomes.filter((o) => o.text === 'MCP rate limit exceeded')).toHaveLength(61);
  }, 300_000);

  it("hold the plan's record limit across both", async () => {
    const capped = ['a', 'b'].map(() =>
      startScript('apps/mcp/src/main.ts', [], {
        DATABASE_URL: testDb.url,
        MCP_PORT: '0',
        LOG_LEVEL: 'silent',
        MMW_RECORD_LIMIT: '25',
      }),
    );
    ingresses.push(...capped);
    const cappedUrls = await Promise.all(capped.map(async (c) => (await c.waitFor(/listening on (http:\S+)/))[1] ?? ''));
    const { key, accountId } = await provisionKey(testDb.database.db, { account: 'capped-co', project: 'main' });
    const outcomes = await inParallel(200, 50, (i) =>
      rawToolCall(cappedUrls[i % 2] ?? '', key, 'remember', { content: `capped ${i}` }),
    );
    expect(outcomes.filter((o) => !o.isError)).toHaveLength(25);
    const rows = await testDb.query<{ n: string }>('select count(*) as n from records where account_id = $1', [accountId]);
    expect(Number(rows[0]?.n)).toBe(25);
  }, 300_000);
});
