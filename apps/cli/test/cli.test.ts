import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestDatabase, runScript, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';

let testDb: TestDatabase;
let mcp: RunningMcp;
const mmw = (...args: string[]) => runScript('apps/cli/src/main.ts', args, { DATABASE_URL: testDb.url });

beforeAll(async () => {
  testDb = await createTestDatabase();
  mcp = await startMcp(testDb.database);
});

afterAll(async () => {
  await mcp.close();
  await testDb.drop();
});

describe('pnpm mmw', () => {
  it('migrate succeeds on a migrated database', async () => {
    const run = await mmw('migrate');
    expect(run.code).toBe(0);
  });

  it('key create --read-only --expires-days makes a key that may only read and that expires', async () => {
    const run = await mmw('key', 'create', '--account', 'cli-ro', '--project', 'api', '--read-only', '--expires-days', '30');
    expect(run.code).toBe(0);
    const key = run.stdout.trim().split('\n').at(-1) ?? '';
    const client = await connectMcp(mcp.url, key);
    const refused = await client.call('remember', { content: 'a read-only key may not write' });
    expect(refused.text).toBe('this key is read-only: it may search and validate_memory, not remember or forget');
    await client.close();
    const [row] = await testDb.query<{ read_only: boolean; days: number }>(
      "select read_only, round(extract(epoch from expires_at - now()) / 86400)::int as days from api_keys where name = 'operator key' and read_only",
    );
    expect(row).toEqual({ read_only: true, days: 30 });
    expect((await mmw('key', 'create', '--account', 'cli-ro', '--project', 'api', '--expires-days', 'soon')).code).not.toBe(0);
  });

  it('key create makes the account, project and member, and prints the key alone on the last line', async () => {
    const run = await mmw('key', 'create', '--account', 'cli-co', '--project', 'api', '--member', 'dev@cli.co', '--name', 'laptop');
    expect(run.code).toBe(0);
    const key = run.stdout.trim().split('\n').at(-1) ?? '';
    expect(key).toMatch(/^mmw_\w{36}$/);
    const client = await connectMcp(mcp.url, key);
    await client.ok('remember', { content: 'made through the CLI' });
    await client.close();
    const stored = await testDb.query<{ key_hash: string; name: string }>('select key_hash, name from api_keys');
    expect(JSON.stringify(stored)).not.toContain(key);
  });

  it('key revoke stops a key at once, by prefix', async () => {
    const created = await mmw('key', 'create', '--account', 'cli-co', '--project', 'api');
    const key = created.stdout.trim().split('\n').at(-1) ?? '';
    const client = await connectMcp(mcp.url, key);
    expect((await mmw('key', 'revoke', key.slice(0, 12))).code).toBe(0);
    await expect(client.call('search', { query: 'x' })).rejects.toThrow(/Unauthorized/);
  });

  it('project deactivate makes keys of the project get the spec error', async () => {
    const created = await mmw('key', 'create', '--account', 'cli-co', '--project', 'old');
    const key = created.stdout.trim().split('\n').at(-1) ?? '';
    expect((await mmw('project', 'deactivate', '--account', 'cli-co', '--project', 'old')).code).toBe(0);
    const client = await connectMcp(mcp.url, key);
    const outcome = await client.call('search', { query: 'x' });
    expect(outcome.text).toBe('bound project is missing, inactive, or outside tenant');
    await client.close();
  });

  it('subscription set stores the state and refuses unknown statuses', async () => {
    const set = await mmw('subscription', 'set', '--account', 'cli-co', '--status', 'past_due', '--plan', 'pro', '--period-end', '2026-12-31T00:00:00Z');
    expect(set.code).toBe(0);
    const rows = await testDb.query<{ status: string; plan: string }>(
      "select s.status, s.plan from subscriptions s join accounts a on a.id = s.account_id where a.slug = 'cli-co'",
    );
    expect(rows).toEqual([{ status: 'past_due', plan: 'pro' }]);
    const bad = await mmw('subscription', 'set', '--account', 'cli-co', '--status', 'bogus');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('status must be one of');
  });

  it('fails with a clear message and a non-zero exit on bad use', async () => {
    const missing = await mmw('key', 'create', '--account', 'x');
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('--project is required');
    const unknown = await mmw('key', 'revoke', 'mmw_doesnotexist');
    expect(unknown.code).not.toBe(0);
    expect((await mmw('frobnicate')).code).not.toBe(0);
  });
});
