import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCallCounter, provisionKey } from '@mmw/core';
import { connectMcp, createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { startMcp } from '@mmw/mcp/testing';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const callsOf = async (accountId: string) => {
  const rows = await db.query<{ calls: string }>('select calls from account_call_usage where account_id = $1', [accountId]);
  return rows.map((row) => Number(row.calls));
};

describe("the month's call counts", () => {
  it('add up exactly under concurrent calls, per account, in one row per month', async () => {
    const counter = createCallCounter(db.database.db, { flushAfterMs: 5 });
    const a = await provisionKey(db.database.db, { account: 'usage-a', project: 'p' });
    const b = await provisionKey(db.database.db, { account: 'usage-b', project: 'p' });
    await Promise.all(
      Array.from({ length: 500 }, async (_, i) => {
        counter.count(i % 5 === 0 ? b.accountId : a.accountId);
        if (i % 50 === 0) await counter.flush();
      }),
    );
    await counter.flush();
    expect(await callsOf(a.accountId)).toEqual([400]);
    expect(await callsOf(b.accountId)).toEqual([100]);
  });

  it('counts every tool call that passes the limits, and writes what is pending when the runtime stops', async () => {
    const mcp = await startMcp(db.database);
    const issued = await mcp.key('usage-mcp');
    const agent = await connectMcp(mcp.url, issued.key);
    await Promise.all(Array.from({ length: 30 }, (_, i) => agent.call('search', { query: `word ${i}` })));
    await agent.close();
    await mcp.close();
    expect(await callsOf(issued.accountId)).toEqual([30]);
  });
});
