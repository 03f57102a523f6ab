import { and, eq, sql } from 'drizzle-orm';
import { accountCallUsage, withSystem, type Db } from '@mmw/db';

/** The month a call counts in: its first day, by the database's clock, in UTC. */
const thisMonth = sql`date_trunc('month', now() at time zone 'utc')::date`;

/**
 * Tool calls per account per month. A call only bumps a number in memory; the numbers are written
 * shortly after, one statement for every account that called, so a busy ingress adds about one small
 * write every flush interval rather than one per call. A crash loses at most that interval's counts:
 * the counts are for the usage shown in the dashboard, and no limit depends on them.
 */
export interface CallCounter {
  count(accountId: string): void;
  /** Writes what is pending; the runtime calls it when it stops. */
  flush(): Promise<void>;
}

export function createCallCounter(db: Db, options: { flushAfterMs?: number } = {}): CallCounter {
  const flushAfterMs = options.flushAfterMs ?? 200;
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const schedule = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => void flush(), flushAfterMs);
    timer.unref();
  };

  async function write(batch: Map<string, number>): Promise<void> {
    const rows = [...batch].map(([accountId, calls]) => ({ accountId, month: thisMonth, calls }));
    // System work: one statement for the calls of many tenants. The counts are not worth an fsync each.
    await withSystem(db, async (tx) => {
      await tx.execute(sql`select set_config('synchronous_commit', 'off', true)`);
      await tx
        .insert(accountCallUsage)
        .values(rows)
        .onConflictDoUpdate({
          target: [accountCallUsage.accountId, accountCallUsage.month],
          set: { calls: sql`${accountCallUsage.calls} + excluded.calls` },
        });
    });
  }

  function flush(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.size === 0) return writing;
    const batch = pending;
    pending = new Map();
    writing = writing
      .then(() => write(batch))
      .catch(() => {
        // Kept for the next flush: the database will answer again.
        for (const [accountId, calls] of batch) pending.set(accountId, (pending.get(accountId) ?? 0) + calls);
        schedule();
      });
    return writing;
  }

  return {
    count(accountId) {
      pending.set(accountId, (pending.get(accountId) ?? 0) + 1);
      schedule();
    },
    flush,
  };
}

/** Tool calls of the account this month. */
export async function callsThisMonth(tx: Db, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ calls: accountCallUsage.calls })
    .from(accountCallUsage)
    .where(and(eq(accountCallUsage.accountId, accountId), eq(accountCallUsage.month, thisMonth)));
  return row?.calls ?? 0;
}
