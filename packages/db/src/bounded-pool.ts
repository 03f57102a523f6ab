import pg from 'pg';

/**
 * No connection could be had in time: the pool's waiting line was full, the wait for a connection
 * ran out (connectionTimeoutMillis), or the database could not be reached. Nothing was written;
 * the caller may try again shortly (core answers it as overload: 503 with Retry-After).
 */
export class NoConnectionError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`no database connection: ${reason}`, options);
    this.name = 'NoConnectionError';
  }
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * A pg.Pool whose line of callers waiting for a connection is bounded: past maxWaiting, a caller is
 * refused at once instead of adding to a wait that grows without bound. Every way into the pool
 * (pool.query and drizzle's transactions alike) goes through connect(), pg's documented method.
 */
export class BoundedPool extends pg.Pool {
  readonly #maxWaiting: number;

  constructor(config: pg.PoolConfig, maxWaiting: number) {
    super(config);
    this.#maxWaiting = maxWaiting;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    // Callers queued while clients are idle are handed one on the next tick: only the rest wait.
    const full = this.waitingCount - this.idleCount >= this.#maxWaiting;
    if (callback) {
      if (full) {
        process.nextTick(() =>
          callback(new NoConnectionError('too many callers waiting'), undefined, () => undefined),
        );
        return;
      }
      super.connect((error, client, done) => {
        callback(
          error ? new NoConnectionError('none free in time', { cause: error }) : undefined,
          client,
          done,
        );
      });
      return;
    }
    if (full) return Promise.reject(new NoConnectionError('too many callers waiting'));
    return super.connect().catch((error: unknown) => {
      throw new NoConnectionError('none free in time', { cause: error });
    });
  }
}
