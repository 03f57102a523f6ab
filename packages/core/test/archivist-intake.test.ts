import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import { planById } from '../src/billing/plans.ts';
import { loadConfig } from '../src/config.ts';
import { takeArchivistIntake } from '../src/jobs/archivist-intake.ts';
import { archivistJob } from '../src/jobs/archivist-job.ts';
import { createJobQueue, type JobQueue } from '../src/jobs/job-queue.ts';
import { deleteAccount } from '../src/erasure/delete-account.ts';
import { validateRememberInput } from '../src/memory/record-input.ts';
import { rememberRecord } from '../src/memory/remember.ts';

/**
 * The archivist's intake on a real database: every stored record gets exactly one job, even when
 * several intakes (several worker processes) run at once, and a refused write leaves nothing.
 */
let t: TestDatabase;
let jobs: JobQueue;
const config = loadConfig({ DATABASE_URL: 'postgres://unused' });
const noAnalysis = { analyse: () => Promise.resolve({ relations: [], marks: [] }) };

beforeAll(async () => {
  t = await createTestDatabase(10);
  jobs = await createJobQueue(t.database, { supervise: false });
});

afterAll(async () => {
  await jobs.stop();
  await t.drop();
});

describe("the archivist's intake", () => {
  it('enqueues one job per stored record, with ids only, however many intakes run at once', async () => {
    const key = await provisionKey(t.database.db, { account: 'intake-co', project: 'main' });
    const caller = { ...key, source: 'agent' as const };
    const stored: string[] = [];
    for (let i = 0; i < 40; i++) {
      const record = await rememberRecord(t.database, {
        caller,
        plan: { ...planById(config, 'team'), recordLimit: 40 },
        input: validateRememberInput({ content: `intake note ${i}` }),
        idempotencyKey: undefined,
        countRecords: true,
      });
      stored.push(record.id);
    }
    await expect(
      rememberRecord(t.database, {
        caller,
        plan: { ...planById(config, 'team'), recordLimit: 40 },
        input: validateRememberInput({ content: 'over the limit' }),
        idempotencyKey: undefined,
        countRecords: true,
      }),
    ).rejects.toThrow(/record limit reached/);
    expect(await t.query('select record_id from archivist_pending')).toHaveLength(40);

    const archivist = archivistJob({ db: t.database.db, analyser: noAnalysis });
    const taken = await Promise.all([1, 2, 3].map(() => takeArchivistIntake(t.database.db, jobs, archivist)));
    expect(taken.reduce((sum, n) => sum + n, 0)).toBe(40);
    expect(await t.query('select record_id from archivist_pending')).toEqual([]);
    const enqueued = await t.query<{ data: { payload: { recordId: string; accountId: string } } }>(
      "select data from pgboss.job where name = 'archivist'",
    );
    expect(enqueued.map((job) => job.data.payload.recordId).sort()).toEqual([...stored].sort());
    expect(enqueued.every((job) => job.data.payload.accountId === key.accountId)).toBe(true);
    expect(await takeArchivistIntake(t.database.db, jobs, archivist)).toBe(0);
  });

  // A pass of the intake takes a record's pending row and enqueues its job in one transaction; an
  // account deleted meanwhile must not keep that job (its payload names the account).
  it('leaves no job of an account deleted while an intake pass holds its record', async () => {
    const key = await provisionKey(t.database.db, { account: 'doomed-intake-co', project: 'main' });
    const record = await rememberRecord(t.database, {
      caller: { ...key, source: 'agent' as const },
      plan: planById(config, 'team'),
      input: validateRememberInput({ content: 'a note whose job is in flight' }),
      idempotencyKey: undefined,
      countRecords: true,
    });
    // The intake's pass, held open: the pending row taken and the job written, not yet committed.
    const intake = new pg.Client({ connectionString: t.url });
    await intake.connect();
    try {
      await intake.query('begin');
      await intake.query('delete from archivist_pending where record_id = $1', [record.id]);
      await intake.query(
        `insert into pgboss.job (name, data) values ('archivist', jsonb_build_object('payload', jsonb_build_object('recordId', $1::text, 'accountId', $2::text)))`,
        [record.id, key.accountId],
      );
      const owner = { accountId: key.accountId, userId: key.userId, role: 'owner' as const, accountKind: 'organization' as const };
      const deleting = deleteAccount(t.database.db, owner, { confirmName: 'doomed-intake-co' });
      // The deletion waits on the row the pass holds; then the pass commits.
      for (let tries = 0; tries < 100; tries++) {
        const waiting = await t.query("select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()");
        if (waiting.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await intake.query('commit');
      await deleting;
    } finally {
      await intake.end();
    }
    expect(await t.query("select 1 from pgboss.job where data->'payload'->>'accountId' = $1", [key.accountId])).toEqual([]);
    expect(await t.query('select 1 from records where account_id = $1', [key.accountId])).toEqual([]);
  });
});
