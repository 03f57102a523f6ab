import { executeSqlOn, type Db } from '@mmw/db';

/**
 * Removes the queued, running, failed and archived jobs (pg-boss keeps each job's payload in
 * pgboss.job, then pgboss.archive) whose payload names the account, or only the one record of it.
 * Payloads carry ids only, never content; they go so that nothing refers to erased data. A handler
 * already running re-reads its record and finds nothing.
 *
 * Called after the rows are deleted, in the same transaction: a pass of the archivist's intake that
 * holds a deleted record's pending row makes the delete wait until it has committed the record's
 * job, and this statement, read after, then sees that job.
 */
export async function eraseJobsOf(tx: Db, accountId: string, recordId?: string): Promise<void> {
  const run = executeSqlOn(tx);
  const condition =
    recordId === undefined
      ? `data->'payload'->>'accountId' = $1`
      : `data->'payload'->>'accountId' = $1 and data->'payload'->>'recordId' = $2`;
  const values = recordId === undefined ? [accountId] : [accountId, recordId];
  await run(`delete from pgboss.job where ${condition}`, values);
  await run(`delete from pgboss.archive where ${condition}`, values);
}
