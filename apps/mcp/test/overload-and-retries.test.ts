import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '@mmw/db';
import {
  createTestDatabase,
  openSession,
  startCommitDroppingProxy,
  type CommitDroppingProxy,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';
import { rawToolCall } from './raw-call.ts';

/**
 * One test per failure mode of the write path: every wait is bounded, overload is answered at once
 * with 503 and Retry-After, and a lost commit acknowledgement never turns into a duplicate. The
 * ingress reaches PostgreSQL through a TCP proxy that can lose a commit's answer.
 */
let t: TestDatabase;
let proxy: CommitDroppingProxy;
let database: Database;
let mcp: RunningMcp;

const LOCK_TIMEOUT_MS = 400;
const POOL_SIZE = 3;

beforeAll(async () => {
  t = await createTestDatabase(1);
  proxy = await startCommitDroppingProxy(t.url);
  database = openPostgres(proxy.urlOf(t.url), {
    poolSize: POOL_SIZE,
    lockTimeoutMs: LOCK_TIMEOUT_MS,
    statementTimeoutMs: 5_000,
    connectTimeoutMs: 500,
    maxWaiting: 2,
  });
  mcp = await startMcp(database);
});

afterAll(async () => {
  await mcp.close();
  await database.close();
  await proxy.close();
  await t.drop();
});

const otherSession = (options = '') => openSession(t.url, options);

const remember = (key: string, content: string, headers: Record<string, string> = {}) =>
  rawToolCall(mcp.url, key, 'remember', { content, workspace: 'main' }, headers);

const stored = async (content: string) =>
  (await t.query<{ n: number }>('select count(*)::int as n from records where content = $1', [content]))[0]
    ?.n;

describe('limits on every wait', () => {
  it('ends a stuck transaction: the write waiting on it gets 503 at its lock timeout, and the next write succeeds', async () => {
    const { key, accountId } = await mcp.key('stuck-co', 'main');
    expect((await remember(key, 'first record')).isError).toBe(false);
    // Another session locks the account's record counter and then does nothing; the server ends it.
    const stuck = await otherSession('-c idle_in_transaction_session_timeout=1500');
    await stuck.query('begin');
    await stuck.query('select * from account_usage where account_id = $1 for update', [accountId]);

    const started = Date.now();
    const waited = await remember(key, 'waits on the stuck transaction');
    expect(waited.status).toBe(503);
    expect(waited.headers.get('retry-after')).toBe('1');
    expect(Date.now() - started).toBeLessThan(LOCK_TIMEOUT_MS * 10);
    expect(await stored('waits on the stuck transaction')).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const next = await remember(key, 'after the stuck transaction ended');
    expect(next.status).toBe(200);
    expect(next.isError).toBe(false);
    await stuck.end().catch(() => undefined);
  });

  it("does not hold another tenant's key check behind a stalled one", async () => {
    const stalled = await mcp.key('stalled-co', 'main');
    const other = await mcp.key('other-co', 'main');
    expect((await remember(stalled.key, 'counted once')).isError).toBe(false);
    // The stalled tenant's call-limit window, counted by its key check, is held by another session.
    const holder = await otherSession();
    await holder.query('begin');
    await holder.query(`select * from rate_limits where key = $1 for update`, [`key:${stalled.keyId}`]);
    try {
      const stalledCall = remember(stalled.key, 'stalled').then((answer) => ({ answer, at: Date.now() }));
      const started = Date.now();
      const otherAnswer = await remember(other.key, 'not held up');
      const otherTook = Date.now() - started;
      expect(otherAnswer.status).toBe(200);
      expect(otherAnswer.isError).toBe(false);
      const { answer } = await stalledCall;
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      // The other tenant was answered without waiting for the stalled key check's timeout.
      expect(otherTook).toBeLessThan(Date.now() - started);
    } finally {
      await holder.query('rollback');
      await holder.end();
    }
  });

  it('answers 503 with Retry-After at once when no connection can be had', async () => {
    const { key } = await mcp.key('busy-co', 'main');
    const pool = database.pool;
    if (!pool) throw new Error('a pool is needed');
    const held = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
    try {
      const answers = await Promise.all([1, 2, 3, 4].map((n) => remember(key, `overload ${n}`)));
      for (const answer of answers) {
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.text).toContain('busy');
      }
    } finally {
      for (const client of held) client.release();
    }
    expect((await remember(key, 'once connections are free')).status).toBe(200);
  });
});

describe('retries are safe', () => {
  it('answers a retry under the same X-Idempotency-Key with the record whose commit answer was lost', async () => {
    const { key } = await mcp.key('lost-ack-co', 'main');
    const headers = { 'x-idempotency-key': 'lost-ack-1' };
    proxy.dropAnswerOf('mmw_remember');
    const lost = await remember(key, 'a record whose commit answer is lost', headers);
    expect(proxy.dropped()).toBe(1);
    expect(lost.isError).toBe(true);
    expect(lost.text).toContain('may have been stored');

    const retried = await remember(key, 'a record whose commit answer is lost', headers);
    expect(retried.isError).toBe(false);
    expect(await stored('a record whose commit answer is lost')).toBe(1);
    const [row] = await t.query<{ id: string }>('select id from records where content = $1', [
      'a record whose commit answer is lost',
    ]);
    expect(retried.structured?.id).toBe(row?.id);
  });

  it('tells a caller without a key that the write may have been stored, never an internal error', async () => {
    const { key } = await mcp.key('lost-ack-plain-co', 'main');
    proxy.dropAnswerOf('mmw_remember');
    const lost = await remember(key, 'stored although unconfirmed');
    expect(lost.isError).toBe(true);
    expect(lost.text).toContain('may have been stored');
    expect(lost.text).not.toContain('internal error');
    expect(await stored('stored although unconfirmed')).toBe(1);
  });
});
