import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import { planById } from '../src/billing/plans.ts';
import { loadConfig } from '../src/config.ts';
import { takeArchivistIntake } from '../src/jobs/archivist-intake.ts';
import { archivistJob } from '../src/jobs/archivist-job.ts';
import { createJobQueue, type JobQueue } from '../src/jobs/job-queue.ts';
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
});
