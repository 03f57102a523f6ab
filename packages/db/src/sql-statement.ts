import pg from 'pg';

/**
 * One statement: with a name, node-postgres prepares it once per connection (its documented
 * `{ name, text, values }`); without one, it is planned on every run.
 */
export interface Statement {
  name?: string;
  text: string;
  values?: unknown[];
}

export type RunStatement = (statement: Statement) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * The commit was sent and its answer never came (the connection broke): the transaction may have
 * committed or not. The caller must not say "not stored"; an X-Idempotency-Key makes a retry safe.
 */
export class CommitUnknownError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the commit was sent and not acknowledged: the write may have been stored', options);
    this.name = 'CommitUnknownError';
  }
}

/** An error PostgreSQL answered; anything else on a statement means the connection failed. */
const answeredByServer = (error: unknown): boolean => error instanceof pg.DatabaseError;

/**
 * One statement that is its own transaction, on a connection of the pool. When its answer never
 * comes (the connection broke after it was sent), it may have committed: CommitUnknownError, as for
 * a commit. A connection that failed is closed rather than given back.
 */
export async function poolWrite(pool: pg.Pool, statement: Statement): Promise<{ rows: Record<string, unknown>[] }> {
  const client = await pool.connect();
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    const result = await client.query(statement);
    client.removeListener('error', ignore);
    client.release();
    return { rows: result.rows as Record<string, unknown>[] };
  } catch (error) {
    client.removeListener('error', ignore);
    if (answeredByServer(error)) {
      client.release();
      throw error;
    }
    client.release(error as Error);
    throw new CommitUnknownError({ cause: error });
  }
}

/**
 * SQLSTATEs of a wait that ran out or of a database that sheds load: statement timeout (or cancel),
 * lock timeout, idle-in-transaction timeout, too many connections, a deadlock or serialization
 * failure. Nothing was written; the caller may try again shortly.
 */
const TRY_AGAIN = new Set(['57014', '55P03', '25P03', '53300', '40P01', '40001']);

/** True for a failure that a retry a moment later may not meet (see TRY_AGAIN). */
export function isTransientFailure(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    TRY_AGAIN.has(error.code)
  );
}
