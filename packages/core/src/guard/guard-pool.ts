/**
 * The Guard off the event loop: a bounded pool of worker threads (piscina) with a bounded queue.
 * Each record gets a time budget from the moment a worker starts on it; a record that exceeds it is
 * refused (the worker is ended and replaced), and a record that cannot start soon enough, or finds
 * the queue full, is an overload the caller may retry.
 */
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { AppError, messages } from '../errors.ts';
import type { GuardedRecord, RecordCheck } from './guard-record.ts';
import type { GuardFields, GuardTask } from './guard-worker.ts';

export interface GuardPoolOptions {
  /** Worker threads checking records at once. */
  readonly threads: number;
  /** Records that may wait for a thread; one more is an overload. */
  readonly queue: number;
  /** How long one record may take to check, from the moment a worker starts on it. */
  readonly budgetMs: number;
  /** How long a record may wait for a worker before the call is answered as an overload. */
  readonly waitMs: number;
}

export interface GuardPool {
  guard<T extends GuardFields>(fields: T): Promise<GuardedRecord<T>>;
  close(): Promise<void>;
}

/** Seconds a caller turned away by a full pool is told to wait. */
const RETRY_AFTER_SECONDS = 1;

/**
 * The worker file beside this module, with this module's own extension: `.js` when the server runs
 * compiled; from the TypeScript sources, a small module that registers tsx in the worker first.
 */
function workerFile(): string {
  const extension = extname(fileURLToPath(import.meta.url));
  const name = extension === '.ts' ? 'guard-worker-tsx.mjs' : `guard-worker${extension}`;
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}

const overloaded = () =>
  new AppError('overloaded', messages.guardOverloaded, { retryAfterSeconds: RETRY_AFTER_SECONDS });

export function createGuardPool(options: GuardPoolOptions): GuardPool {
  const pool = new Piscina<GuardTask, RecordCheck<GuardFields>>({
    filename: workerFile(),
    minThreads: options.threads,
    maxThreads: options.threads,
    maxQueue: options.queue,
    idleTimeout: 60_000,
  });
  // The first run waits for the workers to load; no record's budget pays for that.
  let ready: Promise<unknown> | undefined = pool.run({ fields: {} }).catch(() => undefined);

  // Counted here as well as by piscina, whose own bound lets a burst past it while the queue is empty.
  let inFlight = 0;

  async function run(fields: GuardFields): Promise<RecordCheck<GuardFields>> {
    if (inFlight >= options.threads + options.queue) throw overloaded();
    inFlight += 1;
    try {
      return await runCounted(fields);
    } finally {
      inFlight -= 1;
    }
  }

  async function runCounted(fields: GuardFields): Promise<RecordCheck<GuardFields>> {
    if (ready !== undefined) {
      await ready;
      ready = undefined;
    }
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let timedOut = false;
    let budget: NodeJS.Timeout | undefined;
    const wait = setTimeout(() => abort.abort(), options.waitMs);
    port1.once('message', () => {
      clearTimeout(wait);
      budget = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, options.budgetMs);
    });
    try {
      return await pool.run({ fields, started: port2 }, { signal: abort.signal, transferList: [port2] });
    } catch (error) {
      if (timedOut) throw new AppError('guard_rejected', messages.guardTimedOut);
      if (abort.signal.aborted || isQueueFull(error)) throw overloaded();
      throw error;
    } finally {
      clearTimeout(wait);
      clearTimeout(budget);
      port1.close();
    }
  }

  return {
    async guard(fields) {
      const check = await run(fields);
      if (check.refused !== undefined) {
        throw new AppError('guard_rejected', messages.guardRejected(check.refused));
      }
      return check as GuardedRecord<typeof fields>;
    },
    close: () => pool.close({ force: true }),
  };
}

function isQueueFull(error: unknown): boolean {
  return error instanceof Error && error.message === 'Task queue is at limit';
}
