import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createJobQueue, runnable, type JobDefinition } from '@mmw/core';
import { withSystem } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';

let t: TestDatabase;
/** A queue the migrations create; the job's handler is the test's own. */
const QUEUE = 'archivist';

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await t.drop();
});

describe('the job queue', () => {
  it('stops after a running job is done, and records it as completed', async () => {
    const queue = await createJobQueue(t.database, { supervise: false });
    let started: () => void = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish: () => void = () => {};
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const job: JobDefinition<{ n: number }> = {
      name: QUEUE,
      payload: z.object({ n: z.number() }),
      handle: async () => {
        started();
        await gate;
      },
    };
    await withSystem(t.database.db, (tx) => queue.enqueue(tx, job, { n: 1 }));
    await queue.work([runnable(job)], { concurrency: 1, batchSize: 1 });
    await running;
    // pg-boss marks the job completed without awaiting it, once the handler is done: stop must
    // wait for that statement too, and nothing may reject unhandled.
    const stopped = queue.stop();
    finish();
    await stopped;
    const states = await t.query<{ state: string }>('select state from pgboss.job where name = $1', [QUEUE]);
    expect(states.map((row) => row.state)).toEqual(['completed']);
  });

  it('lives through a database fault when the job is marked done, and the job stays to be retried', async () => {
    await t.query(`delete from pgboss.job where name = $1`, [QUEUE]);
    const queue = await createJobQueue(t.database, { supervise: false });
    const job: JobDefinition<{ n: number }> = {
      name: QUEUE,
      payload: z.object({ n: z.number() }),
      // A real fault where a restart would put one: the job table is gone when pg-boss marks the
      // job completed, a statement it sends without awaiting.
      handle: async () => {
        await t.query('alter table pgboss.job rename to job_away');
      },
    };
    await withSystem(t.database.db, (tx) => queue.enqueue(tx, job, { n: 2 }));
    await queue.work([runnable(job)], { concurrency: 1, batchSize: 1 });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const moved = await t.query(`select 1 from pg_tables where schemaname = 'pgboss' and tablename = 'job_away'`);
      if (moved.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The complete has met the missing table by now; vitest fails the run on an unhandled rejection.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await queue.stop();
    await t.query('alter table pgboss.job_away rename to job');
    const states = await t.query<{ state: string }>('select state from pgboss.job where name = $1', [QUEUE]);
    expect(states.map((row) => row.state)).toEqual(['active']);
  });
});
