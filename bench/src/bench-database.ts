import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migratePostgres } from '@mmw/db';

/** A database of the benchmark's own, created beside DATABASE_URL and dropped at the end. */
export interface BenchDatabase {
  name: string;
  /** As the URL's user (a superuser): bulk loads and index work. */
  url: string;
  /** Runs one statement as the URL's user. */
  admin<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}

export async function createBenchDatabase(serverUrl: string, prefix = 'mmw_bench'): Promise<BenchDatabase> {
  const tag =
    process.env.BENCH_TAG === undefined ? '' : `${process.env.BENCH_TAG.replace(/[^a-z0-9]/g, '')}_`;
  const name = `${prefix}_${tag}${randomBytes(5).toString('hex')}`;
  const server = new pg.Client({ connectionString: serverUrl });
  await server.connect();
  try {
    await server.query(`create database ${name}`);
  } finally {
    await server.end();
  }
  const url = withDatabase(serverUrl, name);
  await migratePostgres(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  // The table of the bare-INSERT route every remember figure is compared with.
  await pool.query(`create table bench_floor (id uuid primary key default gen_random_uuid(), content text not null,
    created_at timestamptz not null default now())`);
  return {
    name,
    url,
    admin: async <T>(text: string, values: unknown[] = []) => (await pool.query(text, values)).rows as T[],
    drop: async () => {
      await pool.end();
      const again = new pg.Client({ connectionString: serverUrl });
      await again.connect();
      try {
        await again.query(`drop database if exists ${name} with (force)`);
      } finally {
        await again.end();
      }
    },
  };
}
