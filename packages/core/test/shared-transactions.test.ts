import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  auditEvents,
  createSharedTransactions,
  deferredSqlOn,
  executeSqlOn,
  failedRequirement,
  withTenant,
  type Db,
} from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import { recordAudit } from '../src/audit/record-audit.ts';

/**
 * Writes of one account that arrive while one of its transactions runs share the next transaction
 * (packages/db/src/shared-transactions.ts); a failure in a shared transaction sends each write back
 * to run alone. On a real database: which transaction each write ran in, and what stayed written.
 */
let t: TestDatabase;
let first: string;
let second: string;

beforeAll(async () => {
  t = await createTestDatabase(10);
  first = (await provisionKey(t.database.db, { account: 'first', project: 'main' })).accountId;
  second = (await provisionKey(t.database.db, { account: 'second', project: 'main' })).accountId;
});

afterAll(async () => {
  await t.drop();
});

/** The transaction a statement ran in, and the tenant it ran as. */
async function whereAmI(tx: Db): Promise<{ txid: string; tenant: string }> {
  const { rows } = await executeSqlOn(tx)(
    `select txid_current()::text as txid, current_setting('mmw.account_id', true) as tenant`,
  );
  return rows[0] as { txid: string; tenant: string };
}

function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** A work that holds its transaction until the gate opens: what arrives meanwhile waits. */
function holding(until: Promise<void>) {
  return async (tx: Db) => {
    const here = await whereAmI(tx);
    await until;
    return here;
  };
}

/** Runs the works of the first account while one of its transactions runs, so they share the next. */
async function whileOneRuns<T>(
  works: Array<(tx: Db) => Promise<T>>,
  finish?: (tx: Db, results: unknown[]) => Promise<void>,
) {
  const shared = createSharedTransactions(t.database.db, {
    maxShared: 16,
    ...(finish ? { finish } : {}),
  });
  const held = gate();
  const running = shared.run(first, holding(held.opened));
  const outcomes = Promise.allSettled(works.map((work) => shared.run(first, work)));
  held.open();
  await running;
  return outcomes;
}

const audited = (accountId: string, action: string) =>
  withTenant(t.database.db, accountId, async (tx) => {
    const rows = await tx
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.accountId, accountId), eq(auditEvents.action, action)));
    return rows.length;
  });

describe('shared transactions', () => {
  it('runs the writes that arrive while one runs in one next transaction, each with its own answer', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 16 });
    const held = gate();
    const running = shared.run(first, holding(held.opened));
    const waiting = ['b', 'c', 'd'].map((name) =>
      shared.run(first, async (tx) => ({ name, ...(await whereAmI(tx)) })),
    );
    held.open();
    const alone = await running;
    const together = await Promise.all(waiting);

    expect(together.map((answer) => answer.name)).toEqual(['b', 'c', 'd']);
    expect(new Set(together.map((answer) => answer.txid)).size).toBe(1);
    expect(together[0]?.txid).not.toBe(alone.txid);
    for (const answer of [alone, ...together]) expect(answer.tenant).toBe(first);
  });

  it('sends the next transaction of the account before it answers the writes of the last one', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 16 });
    const events: string[] = [];
    const held = gate();
    const running = shared.run(first, holding(held.opened)).then(() => events.push('first answered'));
    const waiting = shared.run(first, async (tx) => {
      events.push('next started');
      return whereAmI(tx);
    });
    held.open();
    await Promise.all([running, waiting]);
    expect(events).toEqual(['next started', 'first answered']);
    // With nothing waiting, a write is answered as soon as its transaction ends.
    const lone = await shared.run(first, whereAmI);
    expect(lone.tenant).toBe(first);
  });

  it('shares at most maxShared writes in one transaction', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 2 });
    const held = gate();
    const running = shared.run(first, holding(held.opened));
    const waiting = [1, 2, 3, 4, 5].map(() => shared.run(first, whereAmI));
    held.open();
    await running;
    const txids = (await Promise.all(waiting)).map((answer) => answer.txid);
    expect(new Set(txids).size).toBe(3);
    expect(txids[0]).toBe(txids[1]);
    expect(txids[2]).toBe(txids[3]);
    expect(txids[4]).not.toBe(txids[3]);
  });

  it('never shares a transaction between accounts', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 16 });
    const held = gate();
    const running = shared.run(first, holding(held.opened));
    // The other account's write does not wait for the first account's transaction.
    const other = await shared.run(second, whereAmI);
    const later = shared.run(first, whereAmI);
    held.open();
    const [mine, next] = [await running, await later];
    expect(other.tenant).toBe(second);
    expect(next.tenant).toBe(first);
    expect(new Set([mine.txid, other.txid, next.txid]).size).toBe(3);
  });

  it('runs each write again alone when one of them fails, and keeps only what succeeded', async () => {
    const write = (action: string, fail: boolean) => async (tx: Db) => {
      await recordAudit(tx, { accountId: first, action });
      if (fail) throw new Error(`${action} refused`);
      return (await whereAmI(tx)).txid;
    };
    const [kept1, refused, kept2] = await whileOneRuns([
      write('shared.kept-1', false),
      write('shared.refused', true),
      write('shared.kept-2', false),
    ]);

    expect(kept1?.status).toBe('fulfilled');
    expect(kept2?.status).toBe('fulfilled');
    expect(refused?.status === 'rejected' && String(refused.reason)).toContain('shared.refused refused');
    // Alone, each had a transaction of its own.
    if (kept1?.status === 'fulfilled' && kept2?.status === 'fulfilled')
      expect(kept1.value).not.toBe(kept2.value);
    expect(await audited(first, 'shared.kept-1')).toBe(1);
    expect(await audited(first, 'shared.kept-2')).toBe(1);
    expect(await audited(first, 'shared.refused')).toBe(0);
  });

  it('runs each write again alone when the shared commit fails, and gives the failure to its own write', async () => {
    const write = (action: string, requirement: boolean) => async (tx: Db) => {
      await recordAudit(tx, { accountId: first, action });
      // Sent with the commit: a requirement that fails there fails the commit.
      await deferredSqlOn(tx)(`select mmw_require($1, 'mmw:shared_test')`, [requirement]);
      return action;
    };
    const [kept1, refused, kept2] = await whileOneRuns([
      write('commit.kept-1', true),
      write('commit.refused', false),
      write('commit.kept-2', true),
    ]);

    expect(kept1).toEqual({ status: 'fulfilled', value: 'commit.kept-1' });
    expect(kept2).toEqual({ status: 'fulfilled', value: 'commit.kept-2' });
    expect(refused?.status === 'rejected' && failedRequirement(refused.reason)).toBe('mmw:shared_test');
    expect(await audited(first, 'commit.kept-1')).toBe(1);
    expect(await audited(first, 'commit.kept-2')).toBe(1);
    expect(await audited(first, 'commit.refused')).toBe(0);
  });

  it('finishes each transaction once, in it, with the results of the writes that shared it, in order', async () => {
    const finished: Array<{ txid: string; results: unknown[] }> = [];
    const finish = async (tx: Db, results: unknown[]) => {
      finished.push({ txid: (await whereAmI(tx)).txid, results });
    };
    const write = (name: string) => async (tx: Db) => ({ name, txid: (await whereAmI(tx)).txid });
    const outcomes = await whileOneRuns([write('a'), write('b'), write('c')], finish);

    const answers = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
    const shared = finished.find((one) => one.results.length === 3);
    expect(finished).toHaveLength(2);
    expect(shared?.results).toEqual(answers);
    expect(shared?.txid).toBe(answers[0]?.txid);
  });

  it('runs each write again alone when the finish of a shared transaction fails', async () => {
    const write = (action: string) => async (tx: Db) => {
      await recordAudit(tx, { accountId: first, action });
      return action;
    };
    const finishedWith: unknown[][] = [];
    const finish = async (_tx: Db, results: unknown[]) => {
      finishedWith.push(results);
      if (results.includes('finish.refused')) throw new Error('finish refused');
    };
    const [kept1, refused, kept2] = await whileOneRuns(
      [write('finish.kept-1'), write('finish.refused'), write('finish.kept-2')],
      finish,
    );

    expect(kept1).toEqual({ status: 'fulfilled', value: 'finish.kept-1' });
    expect(kept2).toEqual({ status: 'fulfilled', value: 'finish.kept-2' });
    expect(refused?.status === 'rejected' && String(refused.reason)).toContain('finish refused');
    // Alone, each write was finished with its own result alone.
    expect(finishedWith).toContainEqual(['finish.kept-1']);
    expect(finishedWith).toContainEqual(['finish.refused']);
    expect(await audited(first, 'finish.kept-1')).toBe(1);
    expect(await audited(first, 'finish.kept-2')).toBe(1);
    expect(await audited(first, 'finish.refused')).toBe(0);
  });
});
