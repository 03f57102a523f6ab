import { inArray } from 'drizzle-orm';
import { archivistPending, withSystem, type Db } from '@mmw/db';
import type { ArchivistPayload } from './archivist-job.ts';
import type { JobDefinition, JobQueue } from './job-queue.ts';

/** How many stored records one pass hands over, and how long an intake with nothing to do waits. */
const BATCH = 500;
const IDLE_MS = 250;

/**
 * One pass of the archivist's intake: mmw_remember() leaves each stored record in
 * archivist_pending, in the record's own statement; this takes up to BATCH of them (rows another
 * worker holds are skipped) and enqueues their archivist jobs in the same transaction, so every
 * stored record gets its job once, whatever stops in between. Answers how many it took.
 */
export async function takeArchivistIntake(
  db: Db,
  jobs: JobQueue,
  archivist: JobDefinition<ArchivistPayload>,
): Promise<number> {
  return withSystem(db, async (tx) => {
    const taken = tx
      .select({ recordId: archivistPending.recordId })
      .from(archivistPending)
      .orderBy(archivistPending.recordId)
      .limit(BATCH)
      .for('update', { skipLocked: true });
    const rows = await tx
      .delete(archivistPending)
      .where(inArray(archivistPending.recordId, taken))
      .returning({ recordId: archivistPending.recordId, accountId: archivistPending.accountId });
    if (rows.length > 0) await jobs.enqueueAll(tx, archivist, rows);
    return rows.length;
  });
}

/**
 * Runs the intake in the worker until stopped: a pass after another while each fills a batch, else
 * one every IDLE_MS. A pass that fails (the database away) is tried again after the same pause.
 */
export function startArchivistIntake(
  db: Db,
  jobs: JobQueue,
  archivist: JobDefinition<ArchivistPayload>,
): { stop(): Promise<void> } {
  let stopping = false;
  let wake = () => {};
  const running = (async () => {
    while (!stopping) {
      const taken = await takeArchivistIntake(db, jobs, archivist).catch(() => 0);
      if (taken < BATCH && !stopping) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, IDLE_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      wake();
      await running;
    },
  };
}
