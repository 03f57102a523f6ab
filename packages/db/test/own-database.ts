import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePostgres } from '../src/migrate.ts';

/**
 * A migrated database of its own for one test file of this package (the packages above it use
 * @mmw/test-support, which depends on this one). Dropped by the returned function.
 */
export async function ownDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `mmw_dbtest_${randomBytes(6).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  await migratePostgres(url.toString());
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}
