import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { sql, type SQL } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { BoundedPool } from './bounded-pool.ts';
import * as schema from './schema/index.ts';
import { poolWrite, type RunStatement } from './sql-statement.ts';

export { NoConnectionError } from './bounded-pool.ts';
export {
  CommitUnknownError,
  isTransientFailure,
  type RunStatement,
  type Statement,
} from './sql-statement.ts';

/** The one database type core works with: a pool, an embedded database or a transaction. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** Runs raw SQL with positional parameters; what pg-boss and bulk loaders need. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * The bounds on every wait of a PostgreSQL connection. The statement, lock and idle-in-transaction
 * timeouts are set on each connection at its start; the connect timeout bounds the wait for a
 * connection of the pool (a new one, or one to be given back); maxWaiting bounds the line of callers
 * waiting for one: past it a caller is refused at once (NoConnectionError).
 */
export interface ConnectionLimits {
  poolSize: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  connectTimeoutMs: number;
  maxWaiting: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  poolSize: 10,
  statementTimeoutMs: 15_000,
  lockTimeoutMs: 5_000,
  idleInTransactionTimeoutMs: 30_000,
  connectTimeoutMs: 2_000,
  maxWaiting: 200,
};

export interface Database {
  readonly db: Db;
  readonly kind: 'postgres' | 'embedded';
  readonly executeSql: ExecuteSql;
  /** One statement on a connection of its own, outside any transaction; prepared when named. */
  readonly query: RunStatement;
  /**
   * One write that is its own transaction: committed or not at all. An answer lost after it was
   * sent is CommitUnknownError (the write may have been stored).
   */
  readonly write: RunStatement;
  /** The pool of the postgres kind, for tools that take one (benchmarks, job queue). */
  readonly pool: pg.Pool | undefined;
  close(): Promise<void>;
}

export const APP_ROLE = 'mmw_app';

export function openPostgres(url: string, limits: Partial<ConnectionLimits> = {}): Database {
  const bounds = { ...DEFAULT_CONNECTION_LIMITS, ...limits };
  // Every connection of the pool acts as the application role, so row-level security holds even
  // when the URL names a superuser. No JIT: its compile time (tens of ms) dwarfs the short queries
  // of the tools. The timeouts end a stuck statement, lock wait or forgotten transaction.
  const pool = new BoundedPool(
    {
      connectionString: url,
      max: bounds.poolSize,
      connectionTimeoutMillis: bounds.connectTimeoutMs,
      options: [
        `-c role=${APP_ROLE}`,
        '-c jit=off',
        `-c statement_timeout=${bounds.statementTimeoutMs}`,
        `-c lock_timeout=${bounds.lockTimeoutMs}`,
        `-c idle_in_transaction_session_timeout=${bounds.idleInTransactionTimeoutMs}`,
      ].join(' '),
    },
    bounds.maxWaiting,
  );
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Nothing to log with a payload.
  });
  // A client checked out when its connection ends (PostgreSQL restarted, a failover) emits 'error'
  // with no listener of the pool's: without one of its own, that event would end the process. Its
  // query fails on its own, and the pool discards a client that is no longer queryable when it is
  // given back.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const query: RunStatement = async (statement) => {
    const result = await pool.query(statement);
    return { rows: result.rows as Record<string, unknown>[] };
  };
  return {
    db,
    kind: 'postgres',
    pool,
    executeSql: (text, values) => query({ text, ...(values ? { values } : {}) }),
    query,
    write: (statement) => poolWrite(pool, statement),
    close: () => pool.end(),
  };
}

export async function createPglite(dataDir: string): Promise<PGlite> {
  return PGlite.create({ dataDir, extensions: { btree_gin } });
}

/** Opens an embedded database that is already migrated, as the application role. */
export async function openEmbedded(client: PGlite): Promise<Database> {
  await client.exec(`SET ROLE ${APP_ROLE}`);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const query: RunStatement = async ({ text, values }) => {
    const result = await client.query(text, values);
    return { rows: result.rows as Record<string, unknown>[] };
  };
  return {
    db,
    kind: 'embedded',
    pool: undefined,
    executeSql: (text, values) => query({ text, ...(values ? { values } : {}) }),
    query,
    write: query,
    close: () => client.close(),
  };
}

/** Runs fn in a transaction whose tenant is accountId; row-level security limits it to that account. */
export async function withTenant<T>(db: Db, accountId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.account_id', ${accountId}, true)`);
    return fn(tx);
  });
}

/** Runs fn across tenants: for operator commands and system jobs only. */
export async function withSystem<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.system', 'on', true)`);
    return fn(tx);
  });
}

/** Runs fn where only the API key with this hash is visible: the first step of key authentication. */
export async function withKeyHash<T>(db: Db, keyHash: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.key_hash', ${keyHash}, true)`);
    return fn(tx);
  });
}

/** Runs fn as the signed-in user: their sessions, memberships and accounts, before a tenant is chosen. */
export async function withUser<T>(db: Db, userId: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.user_id', ${userId}, true)`);
    return fn(tx);
  });
}

/**
 * Runs fn where only the user with this email is visible (and may be inserted): sign-in, sign-up
 * and a password-reset request, which know an address and nothing else yet.
 */
export async function withUserEmail<T>(db: Db, email: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.user_email', ${email}, true)`);
    return fn(tx);
  });
}

/** Runs fn where only the dashboard session with this hash is visible: the first step of a request. */
export async function withSessionHash<T>(
  db: Db,
  sessionHash: string,
  fn: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.session_hash', ${sessionHash}, true)`);
    return fn(tx);
  });
}

/** Runs fn where only the invitation with this token hash is visible: the first step of accepting it. */
export async function withInvitationHash<T>(
  db: Db,
  tokenHash: string,
  fn: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.invitation_hash', ${tokenHash}, true)`);
    return fn(tx);
  });
}

/** Runs fn where only the OAuth code or token with this hash is visible: the first step of using it. */
export async function withOAuthHash<T>(db: Db, hash: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.oauth_hash', ${hash}, true)`);
    return fn(tx);
  });
}

/** True when the database answers. */
export async function isDatabaseReady(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A statement with $1…$n placeholders as drizzle SQL, each placeholder bound to its value: what
 * pg-boss needs to enqueue a job in a drizzle transaction (its `db` option takes such a statement).
 */
function bindPositional(text: string, values: unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.param(values[Number(part) - 1]))));
}

/** Raw SQL with $1…$n placeholders, run on a drizzle handle (a transaction included). */
export function executeSqlOn(db: Db): ExecuteSql {
  return async (text, values = []) => {
    const result: unknown = await db.execute(bindPositional(text, values));
    // node-postgres answers a result with rows; PGlite's drizzle driver does the same.
    return { rows: (result as { rows: Record<string, unknown>[] }).rows };
  };
}
