import { and, eq, sql } from 'drizzle-orm';
import { accountCallUsage, withTenant, type Db } from '@mmw/db';

/** The month a call counts in: its first day, by the database's clock, in UTC. */
const thisMonth = sql`date_trunc('month', now() at time zone 'utc')::date`;

/** Counts one tool call for the account's month: one upsert of one row. */
export async function countCall(db: Db, accountId: string): Promise<void> {
  await withTenant(db, accountId, (tx) =>
    tx
      .insert(accountCallUsage)
      .values({ accountId, month: thisMonth, calls: 1 })
      .onConflictDoUpdate({
        target: [accountCallUsage.accountId, accountCallUsage.month],
        set: { calls: sql`${accountCallUsage.calls} + 1` },
      }),
  );
}

/** Tool calls of the account this month. */
export async function callsThisMonth(tx: Db, accountId: string): Promise<number> {
  const [row] = await tx
    .select({ calls: accountCallUsage.calls })
    .from(accountCallUsage)
    .where(and(eq(accountCallUsage.accountId, accountId), eq(accountCallUsage.month, thisMonth)));
  return row?.calls ?? 0;
}
