import { withTenant, type Db } from './client.ts';

/** A unit of work of one account, for a transaction of that account: alone or with others. */
export type TenantWork<T> = (tx: Db) => Promise<T>;

/**
 * Writes of one account that arrive while its transactions are running share the next one, as
 * PostgreSQL's group commit shares a WAL flush: one begin, one commit and one wait on the account's
 * row locks for many writes (docs/decisions/0011-shared-transactions.md).
 */
export interface SharedTransactions<T> {
  /**
   * Runs work in a transaction of the account, with the work of other calls that are waiting, and
   * answers with its own result once that transaction committed. When any work of a shared
   * transaction fails, or its commit does, the transaction rolls back and each work runs again in a
   * transaction of its own: every caller gets the answer or the error it would have had alone.
   */
  run<R extends T>(accountId: string, work: TenantWork<R>): Promise<R>;
}

export interface SharedTransactionOptions<T> {
  /** Most works in one transaction. An account has one transaction running at a time per process. */
  maxShared: number;
  /**
   * Runs in every transaction once its works are done, with their results in order, before the
   * commit: what each work would have written after its own part (an entry, a job, a count), written
   * once for all of them. When it fails, so does the transaction, and each work runs again alone.
   */
  finish?: (tx: Db, results: T[]) => Promise<void>;
}

interface Waiting<T> {
  work: TenantWork<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

interface Lane<T> {
  running: boolean;
  waiting: Array<Waiting<T>>;
}

export function createSharedTransactions<T = unknown>(
  db: Db,
  options: SharedTransactionOptions<T>,
): SharedTransactions<T> {
  const lanes = new Map<string, Lane<T>>();
  const finish = options.finish ?? (async () => {});

  async function alone(accountId: string, unit: Waiting<T>): Promise<void> {
    try {
      unit.resolve(
        await withTenant(db, accountId, async (tx) => {
          const result = await unit.work(tx);
          await finish(tx, [result]);
          return result;
        }),
      );
    } catch (error) {
      unit.reject(error);
    }
  }

  async function together(accountId: string, units: Array<Waiting<T>>): Promise<void> {
    const first = units[0];
    if (units.length === 1 && first) return alone(accountId, first);
    let results: T[];
    try {
      results = await withTenant(db, accountId, async (tx) => {
        // Started together, their statements queue on the transaction's connection in the order they
        // are issued, and the pool's pipeline mode writes them without waiting for the answers of
        // those before. Every work settles before the transaction ends, so none issues a statement
        // after its rollback.
        const settled = await Promise.allSettled(units.map((unit) => unit.work(tx)));
        const done = settled.map((outcome) => {
          if (outcome.status === 'rejected') throw outcome.reason;
          return outcome.value;
        });
        await finish(tx, done);
        return done;
      });
    } catch {
      // Which work failed, and how it would have failed alone, is for each to find out on its own.
      await Promise.all(units.map((unit) => alone(accountId, unit)));
      return;
    }
    units.forEach((unit, i) => unit.resolve(results[i] as T));
  }

  function next(accountId: string, lane: Lane<T>): void {
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
    run<R extends T>(accountId: string, work: TenantWork<R>): Promise<R> {
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
          work,
          resolve: (value) => settle(() => resolve(value as R)),
          reject: (error) => settle(() => fail(error)),
        });
        next(accountId, lane);
      });
    },
  };
}
