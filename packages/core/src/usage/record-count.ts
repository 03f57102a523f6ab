import { eq, sql } from 'drizzle-orm';
import { accountUsage, type Db } from '@mmw/db';

/** A forgotten record gives its place back (records are counted by mmw_remember(), migration 0020). */
export async function countForgottenRecord(tx: Db, accountId: string): Promise<void> {
  await tx
    .update(accountUsage)
    .set({ recordCount: sql`greatest(${accountUsage.recordCount} - 1, 0)` })
    .where(eq(accountUsage.accountId, accountId));
}
