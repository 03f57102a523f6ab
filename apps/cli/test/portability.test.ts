import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestDatabase, runScript, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';

let testDb: TestDatabase;
let mcp: RunningMcp;
let dir = '';
const mmw = (args: string[], input?: string) =>
  runScript('apps/cli/src/main.ts', args, { DATABASE_URL: testDb.url }, input === undefined ? {} : { input });

beforeAll(async () => {
  testDb = await createTestDatabase();
  mcp = await startMcp(testDb.database);
  dir = await mkdtemp(join(tmpdir(), 'mmw-cli-export-'));
});

afterAll(async () => {
  await mcp.close();
  await testDb.drop();
  await rm(dir, { recursive: true, force: true });
});

describe('pnpm mmw export and import', () => {
  it('exports an account to standard output and imports it into another, twice without change', async () => {
    const client = await connectMcp(mcp.url, (await mcp.key('cli-from', 'api', 'ops@cli-from.example')).key);
    const first = await client.ok<{ id: string }>('remember', { content: 'the api runs on port 8080', workspace: 'api', fact_key: 'api-port' });
    await client.ok('remember', { content: 'the api runs on port 9090', workspace: 'api', fact_key: 'api-port' });
    await client.ok('remember', { content: 'the api summary: port 9090 since the move', workspace: 'api', derived_from: [first.id] });
    await client.close();

    const exported = await mmw(['export', '--account', 'cli-from', '--project', 'api']);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ format: 'mmw-export', version: 1, scope: { project: 'api', workspace: null } });
    expect(lines.at(-1)).toMatchObject({ type: 'summary', records: 3, tombstones: 0 });

    await mcp.key('cli-to', 'main', 'ops@cli-to.example');
    const imported = await mmw(['import', '--account', 'cli-to', '--project', 'main'], exported.stdout);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^imported 3 records, 0 tombstones and \d+ relations from local\/[0-9a-f-]{36}; 0 already present; 0 skipped/);

    const file = join(dir, 'export.jsonl');
    await writeFile(file, exported.stdout);
    const again = await mmw(['import', '--account', 'cli-to', '--project', 'main', '--file', file]);
    expect(again.stdout).toMatch(/^imported 0 records, 0 tombstones and 0 relations .*; 3 already present; 0 skipped/);

    const copied = await mmw(['export', '--account', 'cli-to']);
    const summary = copied.stdout.trimEnd().split('\n').at(-1) ?? '';
    expect(JSON.parse(summary)).toMatchObject({ type: 'summary', records: 3 });
    expect(copied.stdout).toContain('the api runs on port 9090');
  });

  it('says what is wrong with a bad file or a bad account, with a non-zero exit', async () => {
    const bad = await mmw(['import', '--account', 'cli-to'], 'not json\n');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('mmw: line 1 is not JSON\n');
    const future = await mmw(
      ['import', '--account', 'cli-to'],
      '{"format":"mmw-export","version":7}\n',
    );
    expect(future.stderr).toBe('mmw: this export is format version 7, from a newer MMW: this instance reads version 1\n');
    const missing = await mmw(['export', '--account', 'nobody-here']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe("mmw: account 'nobody-here' not found, or it has no owner\n");
    expect((await mmw(['export'])).stderr).toBe('mmw: --account is required\n');
  });

  it("refuses an import past the plan's record limit, and imports nothing", async () => {
    const exported = await mmw(['export', '--account', 'cli-from']);
    await mcp.key('cli-small', 'main', 'ops@cli-small.example');
    const refused = await runScript(
      'apps/cli/src/main.ts',
      ['import', '--account', 'cli-small'],
      { DATABASE_URL: testDb.url, MMW_RECORD_LIMIT: '2' },
      { input: exported.stdout },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^mmw: record limit reached: the \S+ plan keeps at most 2 records/);
    const [row] = await testDb.query<{ n: string }>(
      "select count(*) as n from records r join accounts a on a.id = r.account_id where a.slug = 'cli-small'",
    );
    expect(Number(row?.n)).toBe(0);
  });
});
