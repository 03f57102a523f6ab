import { eq, sql } from 'drizzle-orm';
import { accountUsage, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import type { Plan } from '../billing/plans.ts';

/**
 * Counts one more live record, atomically against the plan's limit: the counter row is locked until
 * the record's transaction ends, so concurrent writes with n places left store exactly n. Called last
 * in the transaction, to hold that lock briefly.
 */
export async function countNewRecord(tx: Db, accountId: string, plan: Plan): Promise<void> {
  const limit = plan.recordLimit;
  const counted = await tx
    .insert(accountUsage)
    .values({ accountId, recordCount: 1 })
    .onConflictDoUpdate({
      target: accountUsage.accountId,
      set: { recordCount: sql`${accountUsage.recordCount} + 1` },
      ...(limit === null ? {} : { setWhere: sql`${accountUsage.recordCount} < ${limit}` }),
    })
    .returning({ count: accountUsage.recordCount });
  if (counted.length === 0 || (limit !== null && (counted[0]?.count ?? 0) > limit)) {
    throw new AppError(
      'record_limit',
      `record limit reached: the ${plan.name} plan keeps at most ${limit ?? 0} records. Forget records you no longer need or upgrade the plan.`,
    );
  }
}

export async function countForgottenRecord(tx: Db, accountId: string): Promise<void> {
  await tx
    .update(accountUsage)
    .set({ recordCount: sql`greatest(${accountUsage.recordCount} - 1, 0)` })
    .where(eq(accountUsage.accountId, accountId));
}
