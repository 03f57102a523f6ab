import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePostgres, openPostgres, type Database } from '@mmw/db';
import { adminUrl } from './env.ts';

export const TEMPLATE_DATABASE = 'mmw_test_template';

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
      await admin.query(`drop database if exists ${TEMPLATE_DATABASE}`);
      await admin.query(`create database ${TEMPLATE_DATABASE}`);
      await migratePostgres(databaseUrl(TEMPLATE_DATABASE));
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
export async function createTestDatabase(poolSize = 10): Promise<TestDatabase> {
  const name = `mmw_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
  const url = databaseUrl(name);
  const database = openPostgres(url, poolSize);
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
