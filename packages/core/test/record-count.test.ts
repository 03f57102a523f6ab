import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountUsage, withTenant } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import { loadConfig } from '../src/config.ts';
import { planById, type Plan } from '../src/billing/plans.ts';
import type { Caller } from '../src/caller.ts';
import { isAppError } from '../src/errors.ts';
import { validateRememberInput } from '../src/memory/record-input.ts';
import { rememberRecord } from '../src/memory/remember.ts';
import { countForgottenRecord } from '../src/usage/record-count.ts';

/**
 * The plan's record limit, counted by the record's own statement (mmw_remember): these tests race many writers of one
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

const callers = new Map<string, Caller>();

async function newAccount(name: string): Promise<string> {
  const key = await provisionKey(t.database.db, { account: name, project: 'main' });
  const { accountId, projectId, userId, keyId } = key;
  callers.set(accountId, { accountId, projectId, userId, keyId, source: 'agent' });
  return accountId;
}

/** One remember of a record; says whether the count took it (the plan's error when it did not). */
async function count(accountId: string, plan: Plan): Promise<boolean> {
  const caller = callers.get(accountId);
  if (!caller) throw new Error('unknown account');
  try {
    await rememberRecord(t.database, {
      caller,
      plan,
      input: validateRememberInput({ content: 'a record to count' }),
      idempotencyKey: undefined,
      countRecords: true,
    });
    return true;
  } catch (error) {
    if (isAppError(error) && error.code === 'record_limit') return false;
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
});
