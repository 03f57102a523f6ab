// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- an ambient module of a package without types, reached from every package that type-checks core
/// <reference path="./pg-boss-plans.d.ts" />
import PgBoss from 'pg-boss';
// pg-boss's own statement texts (its package has no exports map): the two it sends without awaiting.
import pgBossPlans from 'pg-boss/src/plans.js';
import { executeSqlOn, type Database, type Db } from '@mmw/db';
import type { z } from 'zod';
import { AppError } from '../errors.ts';

const SCHEMA = 'pgboss';

/** The queue failed jobs land in once their retries are spent; an operator lists and redrives it. */
export const FAILED_JOBS_QUEUE = 'failed-jobs';

/** A job: its queue name, the schema of its payload (ids and names only, never content), its handler. */
export interface JobDefinition<T> {
  name: string;
  payload: z.ZodType<T>;
  /** Idempotent: it may run more than once, and re-reads the current state before acting. */
  handle(payload: T): Promise<void>;
}

/** A job with its payload type erased: it parses what it runs. */
export interface RunnableJob {
  name: string;
  run(data: unknown): Promise<void>;
}

export function runnable<T>(job: JobDefinition<T>): RunnableJob {
  return { name: job.name, run: (data) => job.handle(job.payload.parse(data)) };
}

export interface EnqueueOptions {
  /** A UUID naming this run of the job. */
  id?: string;
  /** Not before this time. */
  startAfter?: Date;
}

export interface FailedJob {
  id: string;
  queue: string;
  payload: unknown;
  failedAt: Date;
}

export interface JobQueue {
  /**
   * Enqueues in the caller's transaction: the job exists if and only if the write commits. A job
   * given an id is enqueued once: a repeat with the same id adds nothing.
   */
  enqueue<T>(tx: Db, job: JobDefinition<T>, payload: T, options?: EnqueueOptions): Promise<void>;
  /** Several runs of one job in the caller's transaction, in one statement. */
  enqueueAll<T>(tx: Db, job: JobDefinition<T>, payloads: T[]): Promise<void>;
  work(jobs: RunnableJob[], options: { concurrency: number; batchSize: number }): Promise<void>;
  failed(): Promise<FailedJob[]>;
  retry(id: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * pg-boss on the application's own connection (its schema comes with the migrations), so the embedded
 * database and PostgreSQL run the same way.
 */
export async function createJobQueue(
  database: Database,
  options: { supervise?: boolean } = {},
): Promise<JobQueue> {
  // pg-boss completes and fails jobs without awaiting, and a fetch in flight can outlive its stop: every
  // statement it issues and every handler it runs is tracked, so stop() returns only once all have
  // settled, and a straggler after that touches nothing (its job stays active, expires and is retried).
  const inFlight = new Set<Promise<unknown>>();
  let stopping = false;
  let stopped = false;
  const track = <T>(promise: Promise<T>): Promise<T> => {
    inFlight.add(promise);
    void promise.then(
      () => inFlight.delete(promise),
      () => inFlight.delete(promise),
    );
    return promise;
  };
  // A worker's complete and fail are sent without awaiting: one that meets a database outage (a restart,
  // a failover) would reject unhandled and end the process. It is reported as pg-boss's other errors
  // are, and answers that no job changed: the job stays active, expires and is retried.
  const unawaited = new Set([pgBossPlans.completeJobs(SCHEMA), pgBossPlans.failJobsById(SCHEMA)]);
  const noJobChanged = { rows: [{ count: 0 }] };
  const boss = new PgBoss({
    db: {
      // After stop, a statement runs nowhere. The only ones pg-boss still sends then are a complete
      // or a fail it does not await, which read the count of jobs changed from the first row: that
      // row says none (an empty answer made them throw, unhandled).
      executeSql: (text, values) => {
        if (stopped) return Promise.resolve(noJobChanged);
        const statement = track(database.executeSql(text, values));
        if (!unawaited.has(text)) return statement;
        return statement.catch((error: unknown) => {
          boss.emit('error', error);
          return noJobChanged;
        });
      },
    },
    schema: SCHEMA,
    migrate: false,
    supervise: options.supervise ?? true,
    schedule: false,
  });
  boss.on('error', () => {
    // Transient database errors are retried by pg-boss on its next poll; payloads are never logged.
  });
  await boss.start();

  // The queue name travels with the payload, so a job that lands in failed-jobs can be redriven.
  const envelope = <T>(job: JobDefinition<T>, payload: T) => ({
    queue: job.name,
    payload: job.payload.parse(payload),
  });

  return {
    async enqueue(tx, job, payload, options = {}) {
      await boss.send(job.name, envelope(job, payload), {
        db: { executeSql: executeSqlOn(tx) },
        ...(options.id === undefined ? {} : { id: options.id }),
        ...(options.startAfter === undefined ? {} : { startAfter: options.startAfter }),
      });
    },
    async enqueueAll(tx, job, payloads) {
      // pg-boss's documented `db` option: its insert runs on the caller's transaction.
      await boss.insert(
        payloads.map((payload) => ({ name: job.name, data: envelope(job, payload) })),
        { db: { executeSql: executeSqlOn(tx) } },
      );
    },
    async work(jobs, options) {
      for (const job of jobs) {
        for (let i = 0; i < options.concurrency; i++) {
          await boss.work<unknown>(
            job.name,
            { batchSize: options.batchSize, pollingIntervalSeconds: 0.5 },
            async (batch) => {
              // A batch fetched while stopping is not started: it fails back to its queue for a retry.
              if (stopping) throw new Error('the job queue is stopping');
              await track(
                (async () => {
                  for (const item of batch) {
                    const envelope = item.data as { payload?: unknown } | null;
                    await job.run(envelope?.payload);
                  }
                })(),
              );
            },
          );
        }
      }
    },
    async failed() {
      const { rows } = await database.executeSql(
        `select id, data, created_on from pgboss.job where name = $1 and state = 'created' order by created_on desc limit 500`,
        [FAILED_JOBS_QUEUE],
      );
      return rows.map((row) => {
        const data = row.data as { queue?: unknown; payload?: unknown } | null;
        return {
          id: String(row.id),
          queue: typeof data?.queue === 'string' ? data.queue : 'unknown',
          payload: data?.payload ?? data,
          failedAt: new Date(String(row.created_on)),
        };
      });
    },
    async retry(id) {
      const { rows } = await database.executeSql(
        `select data from pgboss.job where name = $1 and state = 'created' and id::text = $2`,
        [FAILED_JOBS_QUEUE, id],
      );
      const data = rows[0]?.data as { queue?: unknown; payload?: unknown } | undefined;
      if (typeof data?.queue !== 'string')
        throw new AppError('not_found', `no failed job '${id.slice(0, 64)}'`);
      const job = { queue: data.queue, payload: data.payload };
      await boss.send(job.queue, { queue: job.queue, payload: job.payload });
      await boss.deleteJob(FAILED_JOBS_QUEUE, id);
    },
    async stop() {
      stopping = true;
      await boss.stop({ graceful: true, wait: true, close: false });
      // What pg-boss does once a statement answers (a fetch that ends in a fail, a handler that ends
      // in a complete) comes a few promise steps later: one turn of the event loop lets it start
      // before the queue counts as drained.
      do {
        while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
        await new Promise((resolve) => setImmediate(resolve));
      } while (inFlight.size > 0);
      stopped = true;
    },
  };
}
