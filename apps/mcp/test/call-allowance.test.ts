import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allowanceResetsOn, setSubscriptionByOperator } from '@mmw/core';
import { connectMcp, createTestDatabase, type McpTestClient, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';

// A Pro account whose plan includes 6 tool calls a month (the environment's override of every plan).
const ALLOWANCE = 6;
let db: TestDatabase;
let mcp: RunningMcp;
let client: McpTestClient;
let accountId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  mcp = await startMcp(db.database, { env: { MMW_CALLS_PER_MONTH: String(ALLOWANCE) } });
  const issued = await mcp.key('allowance-co', 'main');
  accountId = issued.accountId;
  await setSubscriptionByOperator(db.database.db, { account: 'allowance-co', status: 'active', plan: 'pro', periodEnd: null });
  client = await connectMcp(mcp.url, issued.key);
});

afterAll(async () => {
  await client.close();
  await mcp.close();
  await db.drop();
});

/** Waits, with a bound, until the month's counted calls reach n (counts are written a moment after each call). */
async function countedCalls(n: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const [row] = await db.query<{ calls: string }>(
      `select calls from account_call_usage where account_id = $1 and month = date_trunc('month', now() at time zone 'utc')::date`,
      [accountId],
    );
    if (Number(row?.calls ?? 0) >= n) return;
    if (Date.now() - started > 10_000) throw new Error(`calls not counted: ${row?.calls ?? 0} of ${n}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("the plan's monthly call allowance at the MCP door", () => {
  it('refuses remember and forget with a notice naming the allowance and its reset day once spent; search and validate_memory go on', async () => {
    const kept = await client.ok<{ id: string }>('remember', { content: 'The deploy runs from the release branch' });
    const spare = await client.ok<{ id: string }>('remember', { content: 'Staging is rebuilt every night' });
    const before = await client.ok<{ notice?: string }>('search', { query: 'deploy release' });
    expect(before.notice).toBeUndefined();
    await client.ok('forget', { id: spare.id });
    await client.ok('validate_memory', { source_id: 'docs/deploy.md', current_source_hash: 'abc' });
    await client.ok('search', { query: 'staging' });
    await countedCalls(ALLOWANCE);

    const resets = allowanceResetsOn(new Date()).toISOString().slice(0, 10);
    const notice = `[MMW Notice]: this account has used the ${ALLOWANCE} tool calls a month of its Pro plan, so memory is read-only until the allowance resets on ${resets} (UTC): search and validate_memory work, remember and forget do not. An owner or admin can change the plan in the MMW dashboard under Billing.`;
    const write = await client.call('remember', { content: 'One more note after the allowance' });
    expect(write.isError).toBe(true);
    expect(write.text).toBe(notice);
    const forget = await client.call('forget', { id: kept.id });
    expect(forget.isError).toBe(true);
    expect(forget.text).toBe(notice);

    const search = await client.call('search', { query: 'deploy release' });
    expect(search.isError).toBe(false);
    expect(search.structured?.notice).toBe(notice);
    expect((search.structured?.result as Array<{ id: string }>).map((r) => r.id)).toContain(kept.id);
    const validate = await client.call('validate_memory', { source_id: 'docs/deploy.md', current_source_hash: 'abc' });
    expect(validate.isError).toBe(false);
    expect(validate.structured?.notice).toBe(notice);

    // Nothing was written by the refused calls.
    const [row] = await db.query<{ n: string }>(
      "select count(*) as n from records where account_id = $1 and content like 'One more note%'",
      [accountId],
    );
    expect(Number(row?.n)).toBe(0);
  });

  it('does not limit a plan without an allowance (self-hosted)', async () => {
    await setSubscriptionByOperator(db.database.db, { account: 'allowance-co', status: 'active', plan: 'self-hosted', periodEnd: null });
    expect((await client.call('remember', { content: 'Self-hosted servers have no monthly allowance' })).isError).toBe(false);
  });
});

describe('the day an allowance resets', () => {
  it('is the first day of the next month in UTC, across a year end', () => {
    expect(allowanceResetsOn(new Date('2026-12-31T23:59:59Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(allowanceResetsOn(new Date('2027-01-01T00:00:00Z')).toISOString()).toBe('2027-02-01T00:00:00.000Z');
  });
});
