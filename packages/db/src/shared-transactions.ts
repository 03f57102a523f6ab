import { withTenant, type Db } from './client.ts';

/** A unit of work of one account, for a transaction of that account: alone or with others. */
export type TenantWork<T> = (tx: Db) => Promise<T>;

/** A write of one account, for a transaction of that account: alone or with others. */
export interface SharedWrite<I, R> {
  /** What the transaction's finish writes for this write; known before it runs. */
  intent: I;
  work: TenantWork<R>;
  /**
   * The same work, sending every statement it needs before any is answered, and failing in the
   * database (its statements fail the transaction) wherever it rejects. A transaction whose writes
   * all have one (a lone write too) is sent whole, its finish and commit included, in one round trip;
   * when it fails, each of its writes runs `work` in a transaction of its own.
   */
  atOnce?: TenantWork<R>;
}

/**
 * Writes of one account that arrive in the same turn of the event loop, or while its transactions
 * are running, share the next one, as PostgreSQL's group commit shares a WAL flush: one begin, one
 * commit and one wait on the account's row locks for many writes
 * (docs/decisions/0011-shared-transactions.md, 0019-first-transaction-a-turn-later.md).
 */
export interface SharedTransactions<I> {
  /**
   * Runs the write in a transaction of the account, with the writes of other calls that are waiting,
   * and answers with its own result once that transaction committed. When any write of a shared
   * transaction fails, or its commit does, the transaction rolls back and each write runs again in a
   * transaction of its own: every caller gets the answer or the error it would have had alone.
   */
  run<R>(accountId: string, write: SharedWrite<I, R>): Promise<R>;
}

export interface SharedTransactionOptions<I> {
  /** Most writes in one transaction. An account has one transaction running at a time per process. */
  maxShared: number;
  /**
   * Runs in every transaction after its writes are sent, with their intents in order, before the
   * commit: what each write would have written after its own part (an entry, a job, a count),
   * written once for all of them. When it fails, so does the transaction, and each write runs again
   * alone.
   */
  finish?: (tx: Db, intents: I[]) => Promise<void>;
  /**
   * Sends the writes of a transaction written whole in one round trip (every one has `atOnce`): one
   * promise per write, in order, each failing where that write's `atOnce` would. Each write's
   * `atOnce` in turn unless given; given, it may send several writes in one statement.
   */
  sendAtOnce?: (tx: Db, writes: Array<SharedWrite<I, unknown>>) => Array<Promise<unknown>>;
}

interface Waiting<I> {
  write: SharedWrite<I, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Lane<I> {
  running: boolean;
  waiting: Array<Waiting<I>>;
}

export function createSharedTransactions<I = undefined>(
  db: Db,
  options: SharedTransactionOptions<I>,
): SharedTransactions<I> {
  const lanes = new Map<string, Lane<I>>();
  const finish = options.finish ?? (async () => {});

  async function alone(accountId: string, unit: Waiting<I>): Promise<void> {
    try {
      unit.resolve(
        await withTenant(db, accountId, async (tx) => {
          const result = await unit.write.work(tx);
          await finish(tx, [unit.write.intent]);
          return result;
        }),
      );
    } catch (error) {
      unit.reject(error);
    }
  }

  /**
   * Every statement of the transaction written at once: its writes', the finish's and the commit.
   * A write that fails makes PostgreSQL refuse the statements after it, and the commit ends the
   * transaction as a rollback; so the results are read once the commit is answered.
   */
  async function atOnce(
    accountId: string,
    units: Array<Waiting<I>>,
    works: Array<TenantWork<unknown>>,
  ): Promise<unknown[]> {
    let sent: Array<Promise<unknown>> = [];
    // Taken as they are sent: a write may fail before the commit is answered.
    let settled: Promise<unknown> = Promise.resolve();
    try {
      await withTenant(db, accountId, async (tx) => {
        sent = options.sendAtOnce
          ? options.sendAtOnce(
              tx,
              units.map((unit) => unit.write),
            )
          : works.map((work) => work(tx));
        settled = Promise.allSettled(sent);
        await finish(
          tx,
          units.map((unit) => unit.write.intent),
        );
      });
    } finally {
      // Settled before anything else runs on the account, whatever the commit's outcome.
      await settled;
    }
    return Promise.all(sent);
  }

  async function inTurn(accountId: string, units: Array<Waiting<I>>): Promise<unknown[]> {
    return withTenant(db, accountId, async (tx) => {
      // Started together, their statements queue on the transaction's connection in the order they
      // are issued, and the pool's pipeline mode writes them without waiting for the answers of
      // those before. Every work settles before the transaction ends, so none issues a statement
      // after its rollback.
      const settled = await Promise.allSettled(units.map((unit) => unit.write.work(tx)));
      const done = settled.map((outcome) => {
        if (outcome.status === 'rejected') throw outcome.reason;
        return outcome.value;
      });
      await finish(
        tx,
        units.map((unit) => unit.write.intent),
      );
      return done;
    });
  }

  async function together(accountId: string, units: Array<Waiting<I>>): Promise<void> {
    const works = units.flatMap((unit) => (unit.write.atOnce ? [unit.write.atOnce] : []));
    const sentAtOnce = works.length === units.length;
    const first = units[0];
    if (!sentAtOnce && units.length === 1 && first) return alone(accountId, first);
    let results: unknown[];
    try {
      results = sentAtOnce ? await atOnce(accountId, units, works) : await inTurn(accountId, units);
    } catch {
      // Which write failed, and how it would have failed alone, is for each to find out on its own.
      await Promise.all(units.map((unit) => alone(accountId, unit)));
      return;
    }
    units.forEach((unit, i) => unit.resolve(results[i]));
  }

  function next(accountId: string, lane: Lane<I>): void {
    if (lane.running) return;
    if (lane.waiting.length === 0) {
      lanes.delete(accountId);
      return;
    }
    lane.running = true;
    void together(accountId, lane.waiting.splice(0, options.maxShared)).finally(() => {
      lane.running = false;
      next(accountId, lane);
    });
  }

  return {
    run<R>(accountId: string, write: SharedWrite<I, R>): Promise<R> {
      return new Promise<R>((resolve, reject) => {
        let lane = lanes.get(accountId);
        if (!lane) {
          lane = { running: false, waiting: [] };
          lanes.set(accountId, lane);
        }
        // While records of the account wait, a transaction's answers are given once the next
        // transaction is sent (a turn of the event loop later): PostgreSQL works on it while the
        // ingress answers, instead of each waiting for the other.
        const settle = (answer: () => void) =>
          lane.waiting.length > 0 ? void setImmediate(answer) : answer();
        const fail: (error: unknown) => void = reject;
        lane.waiting.push({
          write,
          resolve: (value) => settle(() => resolve(value as R)),
          reject: (error) => settle(() => fail(error)),
        });
        // The first write of an account with nothing running starts a transaction a turn of the event
        // loop later (setImmediate), not at once: the writes of calls whose requests were read in the
        // same turn join it. With a transaction running, the next starts when it ends.
        if (!lane.running && lane.waiting.length === 1) setImmediate(() => next(accountId, lane));
      });
    },
  };
}
