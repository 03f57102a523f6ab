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
  type SharedWrite,
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

/** A write with nothing for the finish. */
const write = <R>(work: (tx: Db) => Promise<R>) => ({ intent: undefined, work });

/** A turn of the event loop: a transaction asked for before it has started. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

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
async function whileOneRuns<I, R>(
  writes: Array<SharedWrite<I, R>>,
  intent: I,
  finish?: (tx: Db, intents: I[]) => Promise<void>,
) {
  const shared = createSharedTransactions<I>(t.database.db, {
    maxShared: 16,
    ...(finish ? { finish } : {}),
  });
  const held = gate();
  const running = shared.run(first, { intent, work: holding(held.opened) });
  await turn();
  const outcomes = Promise.allSettled(writes.map((one) => shared.run(first, one)));
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
    const running = shared.run(first, write(holding(held.opened)));
    await turn();
    const waiting = ['b', 'c', 'd'].map((name) =>
      shared.run(
        first,
        write(async (tx) => ({ name, ...(await whereAmI(tx)) })),
      ),
    );
    held.open();
    const alone = await running;
    const together = await Promise.all(waiting);

    expect(together.map((answer) => answer.name)).toEqual(['b', 'c', 'd']);
    expect(new Set(together.map((answer) => answer.txid)).size).toBe(1);
    expect(together[0]?.txid).not.toBe(alone.txid);
    for (const answer of [alone, ...together]) expect(answer.tenant).toBe(first);
  });

  it('lets the writes that arrive in the same turn of the event loop share the first transaction', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 16 });
    const together = await Promise.all(['a', 'b', 'c'].map(() => shared.run(first, write(whereAmI))));
    expect(new Set(together.map((answer) => answer.txid)).size).toBe(1);
    // A write that arrives later, alone, has a transaction of its own.
    const lone = await shared.run(first, write(whereAmI));
    expect(lone.txid).not.toBe(together[0]?.txid);
  });

  it('sends the next transaction of the account before it answers the writes of the last one', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 16 });
    const events: string[] = [];
    const held = gate();
    const running = shared.run(first, write(holding(held.opened))).then(() => events.push('first answered'));
    await turn();
    const waiting = shared.run(
      first,
      write(async (tx) => {
        events.push('next started');
        return whereAmI(tx);
      }),
    );
    held.open();
    await Promise.all([running, waiting]);
    expect(events).toEqual(['next started', 'first answered']);
    // With nothing waiting, a write is answered as soon as its transaction ends.
    const lone = await shared.run(first, write(whereAmI));
    expect(lone.tenant).toBe(first);
  });

  it('shares at most maxShared writes in one transaction', async () => {
    const shared = createSharedTransactions(t.database.db, { maxShared: 2 });
    const held = gate();
    const running = shared.run(first, write(holding(held.opened)));
    await turn();
    const waiting = [1, 2, 3, 4, 5].map(() => shared.run(first, write(whereAmI)));
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
    const running = shared.run(first, write(holding(held.opened)));
    await turn();
    // The other account's write does not wait for the first account's transaction.
    const other = await shared.run(second, write(whereAmI));
    const later = shared.run(first, write(whereAmI));
    held.open();
    const [mine, next] = [await running, await later];
    expect(other.tenant).toBe(second);
    expect(next.tenant).toBe(first);
    expect(new Set([mine.txid, other.txid, next.txid]).size).toBe(3);
  });

  it('runs each write again alone when one of them fails, and keeps only what succeeded', async () => {
    const audit = (action: string, fail: boolean) =>
      write(async (tx) => {
        await recordAudit(tx, { accountId: first, action });
        if (fail) throw new Error(`${action} refused`);
        return (await whereAmI(tx)).txid;
      });
    const [kept1, refused, kept2] = await whileOneRuns(
      [audit('shared.kept-1', false), audit('shared.refused', true), audit('shared.kept-2', false)],
      undefined,
    );

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
    const audit = (action: string, requirement: boolean) =>
      write(async (tx) => {
        await recordAudit(tx, { accountId: first, action });
        // Sent with the commit: a requirement that fails there fails the commit.
        await deferredSqlOn(tx)(`select mmw_require($1, 'mmw:shared_test')`, [requirement]);
        return action;
      });
    const [kept1, refused, kept2] = await whileOneRuns(
      [audit('commit.kept-1', true), audit('commit.refused', false), audit('commit.kept-2', true)],
      undefined,
    );

    expect(kept1).toEqual({ status: 'fulfilled', value: 'commit.kept-1' });
    expect(kept2).toEqual({ status: 'fulfilled', value: 'commit.kept-2' });
    expect(refused?.status === 'rejected' && failedRequirement(refused.reason)).toBe('mmw:shared_test');
    expect(await audited(first, 'commit.kept-1')).toBe(1);
    expect(await audited(first, 'commit.kept-2')).toBe(1);
    expect(await audited(first, 'commit.refused')).toBe(0);
  });

  it('finishes each transaction once, in it, with the intents of the writes that shared it, in order', async () => {
    const finished: Array<{ txid: string; intents: string[] }> = [];
    const finish = async (tx: Db, intents: string[]) => {
      finished.push({ txid: (await whereAmI(tx)).txid, intents });
    };
    const named = (name: string) => ({
      intent: name,
      work: async (tx: Db) => (await whereAmI(tx)).txid,
    });
    const outcomes = await whileOneRuns([named('a'), named('b'), named('c')], 'first', finish);

    const txids = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
    expect(finished.map((one) => one.intents)).toEqual([['first'], ['a', 'b', 'c']]);
    expect(finished[1]?.txid).toBe(txids[0]);
    expect(new Set(txids).size).toBe(1);
  });

  it('runs each write again alone when the finish of a shared transaction fails', async () => {
    const audit = (action: string) => ({
      intent: action,
      work: async (tx: Db) => {
        await recordAudit(tx, { accountId: first, action });
        return action;
      },
    });
    const finishedWith: string[][] = [];
    const finish = async (_tx: Db, intents: string[]) => {
      finishedWith.push(intents);
      if (intents.includes('finish.refused')) throw new Error('finish refused');
    };
    const [kept1, refused, kept2] = await whileOneRuns(
      [audit('finish.kept-1'), audit('finish.refused'), audit('finish.kept-2')],
      'first',
      finish,
    );

    expect(kept1).toEqual({ status: 'fulfilled', value: 'finish.kept-1' });
    expect(kept2).toEqual({ status: 'fulfilled', value: 'finish.kept-2' });
    expect(refused?.status === 'rejected' && String(refused.reason)).toContain('finish refused');
    // Alone, each write was finished with its own intent alone.
    expect(finishedWith).toContainEqual(['finish.kept-1']);
    expect(finishedWith).toContainEqual(['finish.refused']);
    expect(await audited(first, 'finish.kept-1')).toBe(1);
    expect(await audited(first, 'finish.kept-2')).toBe(1);
    expect(await audited(first, 'finish.refused')).toBe(0);
  });

  describe('writes sent at once', () => {
    /** A write whose statement at once records what it did; `work` is what it does alone. */
    const sentAtOnce = (action: string, events: string[], requirement = true) => ({
      intent: action,
      work: async (tx: Db) => {
        events.push(`${action} alone`);
        await recordAudit(tx, { accountId: first, action });
        await executeSqlOn(tx)(`select mmw_require($1, 'mmw:at_once_test')`, [requirement]);
        return (await whereAmI(tx)).txid;
      },
      atOnce: async (tx: Db) => {
        events.push(`${action} sent`);
        const run = executeSqlOn(tx);
        const [, , where] = await Promise.all([
          recordAudit(tx, { accountId: first, action }),
          run(`select mmw_require($1, 'mmw:at_once_test')`, [requirement]),
          whereAmI(tx),
        ]);
        events.push(`${action} answered`);
        return where.txid;
      },
    });

    it('sends every write, the finish and the commit before any answer, in one transaction', async () => {
      const events: string[] = [];
      const finish = async (tx: Db, intents: string[]) => {
        events.push(`finish ${intents.join(' ')}`);
        // Sent with the commit, as what a finish writes is.
        await deferredSqlOn(tx)(`select mmw_require(true, 'mmw:at_once_test')`);
      };
      const outcomes = await whileOneRuns(
        [sentAtOnce('once.a', events), sentAtOnce('once.b', events), sentAtOnce('once.c', events)],
        'first',
        finish,
      );

      const txids = outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
      expect(new Set(txids).size).toBe(1);
      expect(txids[0]).toEqual(expect.any(String));
      expect(events).toEqual([
        'finish first',
        'once.a sent',
        'once.b sent',
        'once.c sent',
        'finish once.a once.b once.c',
        'once.a answered',
        'once.b answered',
        'once.c answered',
      ]);
      for (const action of ['once.a', 'once.b', 'once.c']) expect(await audited(first, action)).toBe(1);
    });

    it('runs each write again alone, as it would run alone, when one fails in the database', async () => {
      const events: string[] = [];
      const finish = async (tx: Db) => {
        await deferredSqlOn(tx)(`select mmw_require(true, 'mmw:at_once_test')`);
      };
      const [kept1, refused, kept2] = await whileOneRuns(
        [
          sentAtOnce('once.kept-1', events),
          sentAtOnce('once.refused', events, false),
          sentAtOnce('once.kept-2', events),
        ],
        'first',
        finish,
      );

      expect(refused?.status === 'rejected' && failedRequirement(refused.reason)).toBe('mmw:at_once_test');
      expect(kept1?.status).toBe('fulfilled');
      expect(kept2?.status).toBe('fulfilled');
      if (kept1?.status === 'fulfilled' && kept2?.status === 'fulfilled')
        expect(kept1.value).not.toBe(kept2.value);
      expect(events).toContain('once.kept-1 alone');
      expect(events).toContain('once.refused alone');
      expect(await audited(first, 'once.kept-1')).toBe(1);
      expect(await audited(first, 'once.kept-2')).toBe(1);
      expect(await audited(first, 'once.refused')).toBe(0);
    });

    it('sends a lone write at once too, and runs its work when that fails', async () => {
      const shared = createSharedTransactions<string>(t.database.db, { maxShared: 16 });
      const events: string[] = [];
      const kept = await shared.run(first, sentAtOnce('lone.kept', events));
      const refused = await shared.run(first, sentAtOnce('lone.refused', events, false)).catch(String);

      expect(kept).toEqual(expect.any(String));
      expect(refused).toContain('mmw:at_once_test');
      expect(events).toEqual([
        'lone.kept sent',
        'lone.kept answered',
        'lone.refused sent',
        'lone.refused alone',
      ]);
      expect(await audited(first, 'lone.kept')).toBe(1);
      expect(await audited(first, 'lone.refused')).toBe(0);
    });

    it('hands the writes of a transaction written whole to sendAtOnce, all in one call, in order', async () => {
      const events: string[] = [];
      const handed: string[][] = [];
      const shared = createSharedTransactions<string>(t.database.db, {
        maxShared: 16,
        sendAtOnce: (tx, writes) => {
          handed.push(writes.map((one) => one.intent));
          return writes.map(async (one) => `${one.intent} in ${(await whereAmI(tx)).txid}`);
        },
      });
      const held = gate();
      const running = shared.run(first, { intent: 'first', work: holding(held.opened) });
      await turn();
      const answers = Promise.all(
        ['handed.a', 'handed.b', 'handed.c'].map((action) => shared.run(first, sentAtOnce(action, events))),
      );
      held.open();
      await running;

      const given = (await answers).map((answer) => answer.split(' in '));
      expect(handed).toEqual([['handed.a', 'handed.b', 'handed.c']]);
      expect(given.map(([action]) => action)).toEqual(['handed.a', 'handed.b', 'handed.c']);
      expect(new Set(given.map(([, txid]) => txid)).size).toBe(1);
      // Their own works, alone or at once, never ran.
      expect(events).toEqual([]);
    });

    it('rolls back a transaction with nothing to finish when a write sent at once fails', async () => {
      const events: string[] = [];
      const [kept, refused] = await whileOneRuns(
        [sentAtOnce('bare.kept', events), sentAtOnce('bare.refused', events, false)],
        'first',
      );

      expect(kept?.status).toBe('fulfilled');
      expect(refused?.status).toBe('rejected');
      expect(await audited(first, 'bare.kept')).toBe(1);
      expect(await audited(first, 'bare.refused')).toBe(0);
    });
  });
});
