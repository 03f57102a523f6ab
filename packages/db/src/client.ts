import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { AT_COMMIT, tuneConnections } from './connection-tuning.ts';

export { PLANNED_EACH_TIME } from './connection-tuning.ts';

/** The one database type core works with: a pool, an embedded database or a transaction. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseTarget =
  { kind: 'postgres'; url: string; poolSize?: number } | { kind: 'embedded'; dataDir: string };

/** Runs raw SQL with positional parameters; what pg-boss and bulk loaders need. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

export interface Database {
  readonly db: Db;
  readonly kind: DatabaseTarget['kind'];
  readonly executeSql: ExecuteSql;
  /**
   * A statement that runs alone, in a transaction of its own, on the one connection kept beside
   * the pool for such statements: those of calls that arrive together are written back to back and
   * answered by one backend in turn (pipeline mode, a Sync each, so each has its own transaction and
   * its own error). What every tool call starts with, the key's session, runs here
   * (docs/decisions/0013-one-connection-for-key-sessions.md). Never a transaction: a `begin` sent
   * here would take in the statements of other calls.
   */
  readonly executeAlone: ExecuteSql;
  /** The pool of the postgres kind, for tools that take one (benchmarks, job queue). */
  readonly pool: pg.Pool | undefined;
  close(): Promise<void>;
}

export const APP_ROLE = 'mmw_app';

export function openPostgres(url: string, poolSize = 10): Database {
  const pool = tunedPool(url, poolSize);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Beside the pool, not in it: a pool of one connection still has it for its transactions.
  const alonePool = tunedPool(url, 1);
  const alone = keptConnection(alonePool);
  return {
    db,
    kind: 'postgres',
    pool,
    executeSql: async (text, values) => {
      const result = await pool.query(text, values);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    executeAlone: alone.execute,
    close: async () => {
      await alone.release();
      await Promise.all([alonePool.end(), pool.end()]);
    },
  };
}

function tunedPool(url: string, max: number): pg.Pool {
  // Every connection of the pool acts as the application role, so row-level security holds
  // even when the URL names a superuser. No JIT: its compile time (tens of ms) dwarfs the
  // short queries of the tools, and a large workspace's estimates would otherwise trigger it.
  // Pipeline mode: statements queued on one connection (the records of a shared transaction) are
  // written at once, each with its own Sync, instead of one per round trip (decision 0011).
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: `-c role=${APP_ROLE} -c jit=off`,
    pipeline: true,
  });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it. Nothing to log with a payload.
  });
  // A client checked out when its connection ends (PostgreSQL restarted, a failover) emits 'error'
  // with no listener of the pool's: without one of its own, that event would end the process. Its
  // query fails on its own, and the pool discards a client that is no longer queryable when it is
  // given back.
  pool.on('connect', (client) => client.on('error', () => {}));
  tuneConnections(pool);
  return pool;
}

/**
 * The connection of a pool of one, taken once and kept, for statements that run alone:
 * node-postgres's pipeline mode writes each as it comes, with its own Sync, while earlier ones are
 * still answered. A connection that fails is given back to be closed, and the next statement takes
 * a new one.
 */
function keptConnection(pool: pg.Pool): { execute: ExecuteSql; release(): Promise<void> } {
  let kept: Promise<pg.PoolClient> | undefined;
  let current: pg.PoolClient | undefined;
  let closed = false;
  const drop = (client: pg.PoolClient, error?: Error) => {
    if (client !== current) return;
    current = undefined;
    kept = undefined;
    client.release(error ?? true);
  };
  const take = (): Promise<pg.PoolClient> => {
    if (closed) return Promise.reject(new Error('the database is closed'));
    kept ??= pool.connect().then(
      (client) => {
        current = client;
        client.on('error', (error) => drop(client, error));
        client.on('end', () => drop(client));
        return client;
      },
      (error: unknown) => {
        kept = undefined;
        throw error;
      },
    );
    return kept;
  };
  return {
    execute: async (text, values) => {
      const client = await take();
      const result = await client.query(text, values);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    release: async () => {
      closed = true;
      const client = await kept?.catch(() => undefined);
      if (client) drop(client);
    },
  };
}

export async function createPglite(dataDir: string): Promise<PGlite> {
  return PGlite.create({ dataDir, extensions: { btree_gin } });
}

/** Opens an embedded database that is already migrated, as the application role. */
export async function openEmbedded(client: PGlite): Promise<Database> {
  await client.exec(`SET ROLE ${APP_ROLE}`);
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  const executeSql: ExecuteSql = async (text, values) => {
    const result = await client.query(text, values);
    return { rows: result.rows as Record<string, unknown>[] };
  };
  return {
    db,
    kind: 'embedded',
    pool: undefined,
    executeSql,
    // One connection already: its statements run one after another.
    executeAlone: executeSql,
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
 * Raw SQL with $1…$n placeholders, run on a drizzle handle (a transaction included): what pg-boss
 * needs to enqueue a job in the transaction of the write that caused it, and what the statements
 * core builds once use. The text goes to the driver as it is, through the session's own query path,
 * with nothing rebuilt per call.
 */
export function executeSqlOn(db: Db): ExecuteSql {
  return async (text, values = []) => {
    const query = db._.session.prepareQuery({ sql: text, params: values }, undefined, undefined, false);
    const result: unknown = await query.execute();
    return { rows: (result as { rows: Record<string, unknown>[] }).rows };
  };
}

/**
 * Like executeSqlOn, for a statement whose answer nobody reads: in a transaction of the pool it is
 * sent with the commit, in the same round trip, and its failure fails the commit (the transaction
 * rolls back). It answers no rows. Elsewhere (the embedded database, no transaction) it runs at once.
 */
export function deferredSqlOn(db: Db): ExecuteSql {
  const run = executeSqlOn(db);
  return async (text, values) => {
    await run(`${AT_COMMIT}${text}`, values);
    return { rows: [] };
  };
}

/**
 * The text of a failed `mmw_require(ok, 'mmw:…')` (migration 0017) anywhere in an error's causes,
 * or undefined when the error is something else.
 */
export function failedRequirement(error: unknown): string | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if ('code' in cause && cause.code === 'MW001') return cause.message;
  }
  return undefined;
}
