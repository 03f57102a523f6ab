import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, drainJobs, runScript, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';
import { rawToolCall } from './raw-call.ts';

let testDb: TestDatabase;
let mcp: RunningMcp;

beforeAll(async () => {
  testDb = await createTestDatabase();
  mcp = await startMcp(testDb.database, { worker: true, env: { MMW_RECORD_LIMIT: '3' } });
});
afterAll(async () => {
  await mcp.close();
  await testDb.drop();
});

const archivistJobs = async () =>
  Number((await testDb.query<{ n: string }>("select count(*) as n from pgboss.job where name = 'archivist'"))[0]?.n);

describe('jobs', () => {
  it('gives each stored record one archivist job: a refused write leaves none', async () => {
    const { key } = await mcp.key('jobs-co', 'main');
    for (let i = 0; i < 3; i++) await rawToolCall(mcp.url, key, 'remember', { content: `kept ${i}` });
    const refused = await rawToolCall(mcp.url, key, 'remember', { content: 'over the limit' });
    expect(refused.text).toMatch(/^record limit reached/);
    expect(await testDb.query("select id from records where content = 'over the limit'")).toEqual([]);
    await drainJobs(testDb);
    expect(await archivistJobs()).toBe(3);
    const states = await testDb.query<{ state: string }>("select state from pgboss.job where name = 'archivist'");
    expect(states.every((row) => row.state === 'completed')).toBe(true);
  });

  it('keeps a job that failed its last retry in the dead-letter queue, listed and redriven by the operator', async () => {
    await testDb.query(
      `insert into pgboss.job (name, data, retry_limit, dead_letter) values ('archivist', '{"queue":"archivist","payload":{"accountId":"not-a-uuid"}}', 0, 'failed-jobs')`,
    );
    await drainJobs(testDb);
    const env = { DATABASE_URL: testDb.url };
    const listed = await runScript('apps/cli/src/main.ts', ['jobs', 'failed'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('archivist');
    expect(listed.stdout).toContain('1 failed job(s)');
    const id = listed.stdout.trim().split(/\s+/)[0] ?? '';
    const retried = await runScript('apps/cli/src/main.ts', ['jobs', 'retry', id], env);
    expect(retried.code).toBe(0);
    // Back in its own queue, with its retries ahead of it; gone from the dead-letter queue.
    const back = await testDb.query<{ data: { payload: unknown } }>(
      "select data from pgboss.job where name = 'archivist' and state in ('created', 'retry', 'active')",
    );
    expect(back.map((row) => row.data.payload)).toContainEqual({ accountId: 'not-a-uuid' });
    const after = await runScript('apps/cli/src/main.ts', ['jobs', 'failed'], env);
    expect(after.stdout).toContain('0 failed job(s)');
    const unknown = await runScript('apps/cli/src/main.ts', ['jobs', 'retry', id], env);
    expect(unknown.code).not.toBe(0);
  }, 180_000);
});
