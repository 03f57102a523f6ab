import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { deferredSqlOn, executeSqlOn, PLANNED_EACH_TIME, withKeyHash, withTenant } from '@mmw/db';
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

describe('round trips', () => {
  const tenant = '4b0c8a52-6f0e-4f57-9d7a-3c1f0e1b2a99';
  /** Counts the answers PostgreSQL closes with ReadyForQuery: one per round trip. */
  async function roundTrips<T>(work: () => Promise<T>): Promise<{ result: T; trips: number }> {
    const client = await pool().connect();
    const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
    client.release();
    let trips = 0;
    const count = () => trips++;
    connection.on('readyForQuery', count);
    try {
      return { result: await work(), trips };
    } finally {
      connection.removeListener('readyForQuery', count);
    }
  }
  /** PostgreSQL's own message, under the query error drizzle wraps it in. */
  const databaseError = (work: Promise<unknown>) =>
    work.then(
      () => 'no error',
      (error: unknown) =>
        error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error),
    );
  const notes = async () =>
    (await pool().query<{ n: number }>('select n from pg_temp.notes order by n')).rows.map((row) => row.n);

  beforeAll(async () => {
    await pool().query('create temp table notes (n int not null)');
  });

  it('writes begin, the scope and the first statement at once, and a deferred statement with the commit', async () => {
    await pool().query('truncate pg_temp.notes');
    const { result, trips } = await roundTrips(() =>
      withTenant(t.database.db, tenant, async (tx) => {
        const { rows } = await executeSqlOn(tx)(`select current_setting('mmw.account_id', true) as tenant`);
        await deferredSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', [1]);
        return rows[0]?.tenant;
      }),
    );
    expect(result).toBe(tenant);
    expect(trips).toBe(2);
    expect(await notes()).toEqual([1]);
  });

  it('sends deferred statements before a later statement of the transaction, in order', async () => {
    await pool().query('truncate pg_temp.notes');
    const seen = await withTenant(t.database.db, tenant, async (tx) => {
      await deferredSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', [2]);
      await deferredSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', [3]);
      const { rows } = await executeSqlOn(tx)('select array_agg(n order by n) as ns from pg_temp.notes');
      await deferredSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', [4]);
      return rows[0]?.ns;
    });
    expect(seen).toEqual([2, 3]);
    expect(await notes()).toEqual([2, 3, 4]);
  });

  it('fails the commit when a deferred statement fails, and keeps nothing of the transaction', async () => {
    await pool().query('truncate pg_temp.notes');
    const failed = withTenant(t.database.db, tenant, async (tx) => {
      await executeSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', [5]);
      await deferredSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', ['not a number']);
    });
    expect(await databaseError(failed)).toMatch(/invalid input syntax for type integer/);
    expect(await notes()).toEqual([]);
    const state = await one<{ outside: boolean }>(`select now() = statement_timestamp() as outside`);
    expect(state.outside).toBe(true);
  });

  it('drops the deferred statements of a transaction that rolls back', async () => {
    await pool().query('truncate pg_temp.notes');
    const failed = withTenant(t.database.db, tenant, async (tx) => {
      await deferredSqlOn(tx)('insert into pg_temp.notes (n) values ($1)', [6]);
      throw new Error('changed my mind');
    });
    await expect(failed).rejects.toThrow('changed my mind');
    expect(await notes()).toEqual([]);
  });

  it('runs a deferred statement at once outside a transaction', async () => {
    await pool().query('truncate pg_temp.notes');
    await deferredSqlOn(t.database.db)('insert into pg_temp.notes (n) values ($1)', [7]);
    expect(await notes()).toEqual([7]);
  });

  it('parses again, next time, a statement whose parse failed inside a pipeline', async () => {
    for (let i = 0; i < 2; i++) {
      const failed = withTenant(t.database.db, tenant, (tx) =>
        executeSqlOn(tx)('select $1::no_such_type as x', ['a']),
      );
      expect(await databaseError(failed)).toMatch(/type "no_such_type" does not exist/);
    }
    for (let i = 0; i < 3; i++) {
      const { rows } = await withTenant(t.database.db, tenant, (tx) =>
        executeSqlOn(tx)('select $1::int * 2 as x', [i]),
      );
      expect(rows[0]?.x).toBe(i * 2);
    }
  });

  it('answers statements issued together in a transaction each with its own rows, in order', async () => {
    const answers = await withTenant(t.database.db, tenant, (tx) =>
      Promise.all([1, 2, 3, 4].map((i) => executeSqlOn(tx)(`select $1::int * ${10 + i} as x`, [i]))),
    );
    expect(answers.map((answer) => answer.rows[0]?.x)).toEqual([11, 24, 39, 56]);
  });

  it('keeps track of what was parsed when a pipeline is written while an earlier statement is still answered', async () => {
    // Pipeline mode: A is written and not yet answered when the pipeline of X (held for the commit)
    // and B follows it; A's parse is A's, and B's failed parse leaves B to be parsed next time.
    for (let round = 0; round < 2; round++) {
      const outcome = withTenant(t.database.db, tenant, async (tx) => {
        const run = executeSqlOn(tx);
        await run('select 1 as warm');
        const answers = await Promise.all([
          databaseError(run('select $1::int + 1000 as a', [round])),
          databaseError(
            (async () => {
              await deferredSqlOn(tx)('select $1::int + 2000 as x', [round]);
              return run('select $1::no_such_type_either as b', ['b']);
            })(),
          ),
        ]);
        throw new Error(answers.join(' | '));
      });
      await expect(outcome).rejects.toThrow('no error | type "no_such_type_either" does not exist');
    }
    const { rows } = await withTenant(t.database.db, tenant, (tx) =>
      executeSqlOn(tx)('select $1::int + 2000 as x', [5]),
    );
    expect(rows[0]?.x).toBe(2005);
  });
});

describe('statements that run alone', () => {
  const alone = () => t.database.executeAlone;
  const backend = async () => Number((await alone()('select pg_backend_pid() as pid')).rows[0]?.pid);

  it('runs the statements of calls made together on one connection beside the pool, each in a transaction of its own', async () => {
    // The pool has a single connection, held here: the statements run alone do not need it.
    const held = await pool().connect();
    try {
      const answers = await Promise.all(
        [1, 2, 3, 4, 5, 6].map((i) =>
          alone()(
            `select pg_backend_pid() as pid, pg_current_xact_id()::text as xact,
                    current_setting('mmw.account_id', true) as before,
                    set_config('mmw.account_id', $1, true) as after`,
            [`tenant-${i}`],
          ),
        ),
      );
      const rows = answers.map((answer) => answer.rows[0]);
      expect(new Set(rows.map((row) => row?.pid)).size).toBe(1);
      const pooled = await held.query<{ pid: number }>('select pg_backend_pid() as pid');
      expect(rows.map((row) => row?.pid)).not.toContain(pooled.rows[0]?.pid);
      expect(new Set(rows.map((row) => row?.xact)).size).toBe(6);
      // What one statement set for its transaction, the next never sees.
      expect(rows.map((row) => row?.before ?? '')).toEqual(['', '', '', '', '', '']);
      expect(rows.map((row) => row?.after)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `tenant-${i}`));
    } finally {
      held.release();
    }
  });

  it('fails a statement alone, and answers those sent with it', async () => {
    const outcomes = await Promise.allSettled([
      alone()('select $1::int + 1 as x', [1]),
      alone()('select 1 / $1::int as x', [0]),
      alone()('select $1::int + 1 as x', [2]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes[0]?.status === 'fulfilled' && outcomes[0].value.rows[0]?.x).toBe(2);
    expect(outcomes[2]?.status === 'fulfilled' && outcomes[2].value.rows[0]?.x).toBe(3);
  });

  it('takes a new connection when its connection was lost', async () => {
    const lost = await backend();
    await t.query('select pg_terminate_backend($1)', [lost]);
    // The statement that meets the closed connection fails; the ones after run on a new one.
    let pid = Number.NaN;
    for (let attempt = 0; attempt < 20 && !(pid > 0); attempt++) {
      pid = await backend().catch(() => Number.NaN);
      if (!(pid > 0)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(pid).toBeGreaterThan(0);
    expect(pid).not.toBe(lost);
    expect((await alone()('select $1::int * 2 as x', [21])).rows[0]?.x).toBe(42);
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

  it('prepares a read of records by their ids', async () => {
    const text = 'select "id" from "records" where ("records"."id" in ($1, $2) and "records"."deleted_at" is null)';
    const ids = ['4b0c8a52-6f0e-4f57-9d7a-3c1f0e1b2a99', '5c1d9b63-7f1f-4068-8e8b-4d2f1f2c3baa'];
    for (let i = 0; i < 3; i++) await pool().query(text, ids);
    expect((await prepared()).filter((statement) => statement === text)).toHaveLength(1);
  });

  it('leaves a statement marked PLANNED_EACH_TIME unnamed, however often it runs', async () => {
    const text = `${PLANNED_EACH_TIME}select $1::int * 2 as twice`;
    for (let i = 0; i < 7; i++) expect(await one<{ twice: number }>(text, [i])).toEqual({ twice: 2 * i });
    expect((await prepared()).filter((statement) => statement.includes('as twice'))).toEqual([]);
  });

  it('runs texts past the first thousand unnamed', async () => {
    for (let i = 0; i < 1_010; i++)
      expect(await one<{ n: number }>(`select $1::int + ${i} as n`, [1])).toEqual({ n: 1 + i });
    const statements = await prepared();
    expect(statements.length).toBeLessThanOrEqual(1_000);
    expect(statements).not.toContain('select $1::int + 1009 as n');
  });
});
