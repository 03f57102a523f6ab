import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import {
  migratePostgres,
  migrationsFolder,
  openPostgres,
  type ConnectionLimits,
  type Database,
} from '@mmw/db';
import { adminUrl } from './env.ts';

/** The template is named by the migrations it holds, so concurrent runs share it and a change rebuilds it. */
export const TEMPLATE_DATABASE = `mmw_tpl_${migrationsDigest().slice(0, 16)}`;

function migrationsDigest(): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    hash.update(file).update(readFileSync(join(migrationsFolder, file)));
  }
  return hash.digest('hex');
}

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Builds the migrated template once per run; every test file copies it. */
export async function prepareTemplate(): Promise<void> {
  await withAdmin(async (admin) => {
    await admin.query('select pg_advisory_lock(7265101)');
    try {
      const existing = await admin.query('select 1 from pg_database where datname = $1', [TEMPLATE_DATABASE]);
      if (existing.rowCount === 0) {
        // Built under another name, then renamed: a half-built template is never used.
        const building = `${TEMPLATE_DATABASE}_building`;
        await admin.query(`drop database if exists ${building}`);
        await admin.query(`create database ${building}`);
        await migratePostgres(databaseUrl(building));
        await admin.query(`alter database ${building} rename to ${TEMPLATE_DATABASE}`);
      }
    } finally {
      await admin.query('select pg_advisory_unlock(7265101)');
    }
  });
}

export interface TestDatabase {
  name: string;
  url: string;
  database: Database;
  /** Reads or writes as the database's superuser, past row-level security: for assertions only. */
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A database of its own for one test file, copied from the migrated template. */
export async function createTestDatabase(
  poolSize = 10,
  limits: Partial<ConnectionLimits> = {},
): Promise<TestDatabase> {
  const name = `mmw_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
  const url = databaseUrl(name);
  const database = openPostgres(url, {
    poolSize,
    // Tests race hundreds of writes on a shared machine: waits are bounded wider than in production
    // unless a test asks for its own bounds.
    connectTimeoutMs: 20_000,
    maxWaiting: 10_000,
    ...limits,
  });
  return {
    name,
    url,
    database,
    query: async <T>(text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    drop: async () => {
      await database.close();
      await withAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`));
    },
  };
}

/**
 * An empty database migrated up to (not including) the migration whose tag ends with `tagSuffix`, to
 * test what that migration does to data written before it; migrate() then applies the rest.
 */
export async function createDatabaseBefore(tagSuffix: string): Promise<{
  url: string;
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  migrate(): Promise<void>;
  drop(): Promise<void>;
}> {
  const name = `mmw_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name}`));
  const url = databaseUrl(name);
  const folder = mkdtempSync(join(tmpdir(), 'mmw-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const count = journal.entries.findIndex((entry) => entry.tag.endsWith(tagSuffix));
  if (count < 0) throw new Error(`no migration named *${tagSuffix}`);
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
  await migratePostgres(url, folder);
  return {
    url,
    query: async (text, values = []) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as Record<string, unknown>[];
      } finally {
        await client.end();
      }
    },
    migrate: () => migratePostgres(url),
    drop: () => withAdmin(async (admin) => void (await admin.query(`drop database if exists ${name} with (force)`))),
  };
}

/**
 * Waits until no job of the queue is waiting or running, nor (for the archivist) a stored record
 * still in its intake; polls the tables, bounded in time.
 */
export async function drainJobs(
  testDb: TestDatabase,
  queue = 'archivist',
  timeoutMs = 30_000,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    const [row] = await testDb.query<{ n: string }>(
      `select (select count(*) from pgboss.job where name = $1 and state in ('created', 'retry', 'active'))
            + (select count(*) from archivist_pending where $1 = 'archivist') as n`,
      [queue],
    );
    if (Number(row?.n) === 0) return;
    if (Date.now() - started > timeoutMs)
      throw new Error(`jobs of ${queue} still pending after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A superuser session of its own on the database at url, as another process would hold one: for
 * tests that hold a lock or a transaction open. Its errors (the server ending it) are left to its
 * queries.
 */
export async function openSession(url: string, options = ''): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, options });
  await client.connect();
  client.on('error', () => undefined);
  return client;
}
