import { eq, sql } from 'drizzle-orm';
import { accountUsage, deferredSqlOn, failedRequirement, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import type { Plan } from '../billing/plans.ts';

const RECORD_LIMIT_FAILURE = 'mmw:record_limit';

/** $4 more records on the account's counter, or a failed requirement past the plan's limit ($2). */
const COUNT_RECORDS = `with counted as (
     insert into account_usage as u (account_id, record_count) values ($1, $4::int)
     on conflict (account_id) do update set record_count = u.record_count + $4::int
       where $2::int is null or u.record_count + $4::int <= $2::int
     returning u.record_count)
   select mmw_require(exists (select from counted where $2::int is null or record_count <= $2::int), $3)`;

/**
 * Counts `added` more live records, atomically against the plan's limit: the counter row is locked
 * until the records' transaction ends, so concurrent writes with n places left store exactly n. The
 * count is sent with the commit (it holds that lock for the commit alone); past the limit it fails
 * the commit, and recordLimitFailure() tells that failure apart.
 */
export async function countNewRecords(tx: Db, accountId: string, plan: Plan, added = 1): Promise<void> {
  await deferredSqlOn(tx)(COUNT_RECORDS, [accountId, plan.recordLimit, RECORD_LIMIT_FAILURE, added]);
}

/** The plan's error when the error is countNewRecords's refusal; undefined otherwise. */
export function recordLimitFailure(error: unknown, plan: Plan): AppError | undefined {
  if (failedRequirement(error) !== RECORD_LIMIT_FAILURE) return undefined;
  return new AppError(
    'record_limit',
    `record limit reached: the ${plan.name} plan keeps at most ${plan.recordLimit ?? 0} records. Forget records you no longer need or upgrade the plan.`,
  );
}

export async function countForgottenRecord(tx: Db, accountId: string): Promise<void> {
  await tx
    .update(accountUsage)
    .set({ recordCount: sql`greatest(${accountUsage.recordCount} - 1, 0)` })
    .where(eq(accountUsage.accountId, accountId));
}
