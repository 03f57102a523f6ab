import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountUsage, withTenant } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import { loadConfig } from '../src/config.ts';
import { planById, type Plan } from '../src/billing/plans.ts';
import { countForgottenRecord, countNewRecords, recordLimitFailure } from '../src/usage/record-count.ts';

/**
 * The plan's record limit, counted in the record's transaction: these tests race many writers of one
 * account against limits far from and close to the count, on a real database, and check that exactly
 * the places left are taken and that the count says so.
 */
let t: TestDatabase;
const config = loadConfig({ DATABASE_URL: 'postgres://unused' });
const withLimit = (recordLimit: number | null): Plan => ({ ...planById(config, 'team'), recordLimit });

beforeAll(async () => {
  t = await createTestDatabase(10);
});

afterAll(async () => {
  await t.drop();
});

async function newAccount(name: string): Promise<string> {
  return (await provisionKey(t.database.db, { account: name, project: 'main' })).accountId;
}

/** One transaction per write (or per `added` writes, as a shared one); says whether the count took it. */
async function count(accountId: string, plan: Plan, added = 1): Promise<boolean> {
  try {
    await withTenant(t.database.db, accountId, (tx) => countNewRecords(tx, accountId, plan, added));
    return true;
  } catch (error) {
    if (recordLimitFailure(error, plan)) return false;
    throw error;
  }
}

const counted = (accountId: string) =>
  withTenant(t.database.db, accountId, async (tx) => {
    const [row] = await tx.select().from(accountUsage).where(eq(accountUsage.accountId, accountId));
    return row?.recordCount ?? 0;
  });

async function race(accountId: string, plan: Plan, writes: number): Promise<number> {
  const taken = await Promise.all(Array.from({ length: writes }, () => count(accountId, plan)));
  return taken.filter(Boolean).length;
}

describe('the record count', () => {
  it('takes exactly the places left when 300 writes race for 120, and counts them', async () => {
    const accountId = await newAccount('count-race');
    expect(await race(accountId, withLimit(120), 300)).toBe(120);
    expect(await counted(accountId)).toBe(120);
    expect(await count(accountId, withLimit(120))).toBe(false);
  });

  it('takes exactly the places left after earlier writes', async () => {
    const accountId = await newAccount('count-spread');
    expect(await race(accountId, withLimit(1_000), 200)).toBe(200);
    expect(await race(accountId, withLimit(1_000), 1_000)).toBe(800);
    expect(await counted(accountId)).toBe(1_000);
  });

  it('holds a lowered limit at once', async () => {
    const accountId = await newAccount('count-lowered');
    expect(await race(accountId, withLimit(10_000), 100)).toBe(100);
    expect(await race(accountId, withLimit(110), 50)).toBe(10);
    expect(await counted(accountId)).toBe(110);
  });

  it('gives a place back for each forgotten record', async () => {
    const accountId = await newAccount('count-forget');
    expect(await race(accountId, withLimit(20), 20)).toBe(20);
    for (let i = 0; i < 3; i++)
      await withTenant(t.database.db, accountId, (tx) => countForgottenRecord(tx, accountId));
    expect(await counted(accountId)).toBe(17);
    expect(await race(accountId, withLimit(20), 10)).toBe(3);
    expect(await counted(accountId)).toBe(20);
  });

  it('counts every write without a limit, and never below zero', async () => {
    const accountId = await newAccount('count-unlimited');
    for (let i = 0; i < 2; i++)
      await withTenant(t.database.db, accountId, (tx) => countForgottenRecord(tx, accountId));
    expect(await counted(accountId)).toBe(0);
    expect(await race(accountId, withLimit(null), 150)).toBe(150);
    expect(await counted(accountId)).toBe(150);
  });

  it('takes several records at once only when all of them fit, and counts them', async () => {
    const accountId = await newAccount('count-several');
    expect(await count(accountId, withLimit(10), 4)).toBe(true);
    expect(await count(accountId, withLimit(10), 4)).toBe(true);
    expect(await count(accountId, withLimit(10), 4)).toBe(false);
    expect(await counted(accountId)).toBe(8);
    expect(await count(accountId, withLimit(10), 2)).toBe(true);
    expect(await counted(accountId)).toBe(10);
    const fresh = await newAccount('count-several-first');
    expect(await count(fresh, withLimit(3), 4)).toBe(false);
    expect(await counted(fresh)).toBe(0);
  });
});
