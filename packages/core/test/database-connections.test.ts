import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { executeSqlOn, withKeyHash, withTenant } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';

/**
 * The pool's connections hold a transaction's `begin` back to send it with the statement that sets
 * the transaction's scope, and run parameterised statements as named prepared statements
 * (packages/db/src/connection-tuning.ts). One connection, so every statement meets the same session.
 */
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase(1);
});

afterAll(async () => {
  await t.drop();
});

const pool = () => {
  const found = t.database.pool;
  if (!found) throw new Error('a pool is needed');
  return found;
};

async function one<T>(text: string, values: unknown[] = []): Promise<T> {
  const { rows } = await pool().query(text, values);
  return rows[0] as T;
}

describe('transactions and their scope', () => {
  it('sets the tenant for the transaction only, sent with its begin', async () => {
    const accountId = '4b0c8a52-6f0e-4f57-9d7a-3c1f0e1b2a99';
    const inside = await withTenant(t.database.db, accountId, async (tx) => {
      const { rows } = await executeSqlOn(tx)(
        `select current_setting('mmw.account_id', true) as tenant, now() = statement_timestamp() as fresh`,
      );
      return rows[0];
    });
    // The transaction began before its second statement: its start is not the statement's.
    expect(inside).toEqual({ tenant: accountId, fresh: false });
    const after = await one<{ tenant: string | null }>(
      `select current_setting('mmw.account_id', true) as tenant`,
    );
    expect(after.tenant ?? '').toBe('');
  });

  it('passes a value with quotes and backslashes to set_config as a value', async () => {
    const hash = `it's a \\ value'); select pg_sleep(1); --`;
    const seen = await withKeyHash(t.database.db, hash, async (tx) => {
      const { rows } = await executeSqlOn(tx)(`select current_setting('mmw.key_hash', true) as hash`);
      return rows[0]?.hash;
    });
    expect(seen).toBe(hash);
  });

  it('rolls back a transaction that failed after its scope, and leaves the connection outside any transaction', async () => {
    const failed = withTenant(t.database.db, '4b0c8a52-6f0e-4f57-9d7a-3c1f0e1b2a99', async (tx) => {
      await tx.execute(sql`select 1 / 0`);
    });
    await expect(failed).rejects.toThrow(/select 1 \/ 0/);
    const state = await one<{ outside: boolean }>(`select now() = statement_timestamp() as outside`);
    expect(state.outside).toBe(true);
  });

  it('leaves the connection outside any transaction when a transaction ends before its first statement', async () => {
    await expect(
      t.database.db.transaction(async () => {
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await t.database.db.transaction(async () => {});
    const state = await one<{ outside: boolean }>(`select now() = statement_timestamp() as outside`);
    expect(state.outside).toBe(true);
  });
  it('begins before a callback-style statement that follows a held begin', async () => {
    const client = await pool().connect();
    try {
      await client.query('begin');
      const inTransaction = await new Promise<boolean>((resolve, reject) => {
        void client.query(
          'select now() = statement_timestamp() as outside',
          (error: Error | null, result: { rows: Array<{ outside: boolean }> }) =>
            error ? reject(error) : resolve(result.rows[0]?.outside === false),
        );
      });
      expect(inTransaction).toBe(true);
    } finally {
      await client.query('rollback');
      client.release();
    }
  });
});

describe('prepared statements', () => {
  const prepared = async () =>
    (await pool().query<{ statement: string }>('select statement from pg_prepared_statements')).rows.map(
      (row) => row.statement,
    );

  it('prepares a parameterised statement once per connection, and leaves reads of records and word searches unnamed', async () => {
    const text = 'select $1::int + 1 as next';
    for (let i = 0; i < 3; i++) expect(await one<{ next: number }>(text, [i])).toEqual({ next: i + 1 });
    await pool().query(`select count(*) from "records" where "workspace_id" = $1`, [
      '4b0c8a52-6f0e-4f57-9d7a-3c1f0e1b2a99',
    ]);
    await pool().query(`select to_tsvector('simple', $1) @@ to_tsquery('simple', 'deploy') as hit`, [
      'deploy staging',
    ]);
    const statements = await prepared();
    expect(statements.filter((statement) => statement === text)).toHaveLength(1);
    expect(statements.some((statement) => statement.includes('"records"') || statement.includes('@@'))).toBe(
      false,
    );
  });

  it('runs texts past the first thousand unnamed', async () => {
    for (let i = 0; i < 1_010; i++)
      expect(await one<{ n: number }>(`select $1::int + ${i} as n`, [1])).toEqual({ n: 1 + i });
    const statements = await prepared();
    expect(statements.length).toBeLessThanOrEqual(1_000);
    expect(statements).not.toContain('select $1::int + 1009 as n');
  });
});
