import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  executeSqlOn,
  isTransientFailure,
  NoConnectionError,
  openPostgres,
  withKeyHash,
  withTenant,
} from '../src/index.ts';
import { ownDatabase } from './own-database.ts';

/** The bounds on every wait of a connection (openPostgres) and the scope of a transaction. */
let target: { url: string; drop(): Promise<void> };

beforeAll(async () => {
  target = await ownDatabase();
});

afterAll(async () => {
  await target.drop();
});

describe('a transaction and its scope', () => {
  it('sets the tenant for the transaction only', async () => {
    const database = openPostgres(target.url, { poolSize: 1 });
    try {
      const tenant = '4b0c8a52-6f0e-4f57-9d7a-3c1f0e1b2a99';
      const inside = await withTenant(database.db, tenant, async (tx) => {
        const { rows } = await executeSqlOn(tx)(`select current_setting('mmw.account_id', true) as tenant`);
        return rows[0];
      });
      expect(inside).toEqual({ tenant });
      const { rows } = await database.query({
        text: `select current_setting('mmw.account_id', true) as tenant`,
      });
      expect(rows[0]?.tenant ?? '').toBe('');
    } finally {
      await database.close();
    }
  });

  it('passes a value with quotes and backslashes to set_config as a value', async () => {
    const database = openPostgres(target.url, { poolSize: 1 });
    try {
      const hash = `it's a \\ value'); select pg_sleep(1); --`;
      const seen = await withKeyHash(database.db, hash, async (tx) => {
        const { rows } = await executeSqlOn(tx)(`select current_setting('mmw.key_hash', true) as hash`);
        return rows[0]?.hash;
      });
      expect(seen).toBe(hash);
    } finally {
      await database.close();
    }
  });
});

describe('limits on every wait', () => {
  it('ends a statement that runs past the statement timeout, and the connection serves the next', async () => {
    const database = openPostgres(target.url, { poolSize: 1, statementTimeoutMs: 200 });
    try {
      const started = Date.now();
      const failure = await database.query({ text: 'select pg_sleep(5)' }).catch((error: unknown) => error);
      expect(isTransientFailure(failure)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await database.query({ text: 'select 1 as one' })).rows[0]).toEqual({ one: 1 });
    } finally {
      await database.close();
    }
  });

  it('ends a transaction left idle past the idle-in-transaction timeout', async () => {
    const database = openPostgres(target.url, { poolSize: 1, idleInTransactionTimeoutMs: 200 });
    try {
      const stuck = database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        await tx.execute(sql`select 2`);
      });
      await expect(stuck).rejects.toThrow();
      expect((await database.query({ text: 'select 1 as one' })).rows[0]).toEqual({ one: 1 });
    } finally {
      await database.close();
    }
  });

  it('refuses at once past the bound of callers waiting for a connection, and after the connect timeout', async () => {
    const database = openPostgres(target.url, { poolSize: 1, maxWaiting: 2, connectTimeoutMs: 300 });
    try {
      const busy = database.query({ text: 'select pg_sleep(1.5)' });
      const waiting = [1, 2].map(() => database.query({ text: 'select 1' }).catch((error: unknown) => error));
      const started = Date.now();
      const refused = await database.query({ text: 'select 1' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NoConnectionError);
      expect(Date.now() - started).toBeLessThan(100);
      // The two that waited gave up once the connect timeout ran out.
      for (const outcome of await Promise.all(waiting)) expect(outcome).toBeInstanceOf(NoConnectionError);
      await busy;
    } finally {
      await database.close();
    }
  });
});
