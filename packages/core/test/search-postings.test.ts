import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { APP_ROLE, schema, type Db } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey, searchRecords, type Caller } from '../src/index.ts';

/**
 * The word index holds a posting list per workspace and word (migration 0032): a query word read
 * through it costs in proportion to its own workspace's rows that hold the word, however many rows
 * of other tenants hold it. Before, a prefix term read every tenant's postings of every word it
 * starts: at 1M records, `fail:*` in a workspace of 8,000 rows read 170 index pages and took 90 ms
 * to find 875 rows; now 5 pages and 0.3 ms.
 */
const BIG = 40_000;
const SMALL = 2_000;
const DEPLOYS = 5;

let t: TestDatabase;
let small: Caller;
const workspaces = { big: '', small: '' };

/** `count` records of the caller's default workspace, made of `content` with # numbered. */
async function insert(caller: Caller, content: string, count: number): Promise<string> {
  const [ws] = await t.query<{ id: string }>(
    `insert into workspaces (account_id, project_id, name) values ($1, $2, 'default')
     on conflict do nothing returning id`,
    [caller.accountId, caller.projectId],
  );
  const [existing] = await t.query<{ id: string }>(`select id from workspaces where account_id = $1`, [
    caller.accountId,
  ]);
  const workspaceId = ws?.id ?? existing?.id ?? '';
  await t.query(
    `insert into records (account_id, project_id, workspace_id, author_user_id, content, source, updated_at)
     select $1, $2, $3, $4, replace($5, '#', i::text), 'agent', timestamptz '2026-01-01' + i * interval '1 second'
       from generate_series(1, $6::int) as i`,
    [caller.accountId, caller.projectId, workspaceId, caller.userId, content, count],
  );
  return workspaceId;
}

beforeAll(async () => {
  t = await createTestDatabase(2);
  const large = {
    ...(await provisionKey(t.database.db, { account: 'large', project: 'main' })),
    source: 'agent' as const,
  };
  small = {
    ...(await provisionKey(t.database.db, { account: 'small', project: 'main' })),
    source: 'agent' as const,
  };
  // Another tenant's large workspace, where deploy and its forms are everywhere.
  workspaces.big = await insert(
    large,
    'deployment of the deployer: deployed, redeployed, deploys and deploying',
    BIG,
  );
  // The small workspace: a few old records name a deployment, none of the newest.
  workspaces.small = await insert(small, 'the staging deployment runbook #', DEPLOYS);
  await insert(small, 'a note about billing', SMALL);
  await t.query('vacuum analyze records');
}, 180_000);

afterAll(async () => {
  await t.drop();
});

/** Index pages a bitmap scan of the word index reads for a prefix query in one workspace. */
async function wordIndexPages(workspaceId: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: t.url });
  await client.connect();
  try {
    await client.query(`set role ${APP_ROLE}`);
    await client.query(`select set_config('mmw.system', 'on', false)`);
    const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
      `explain (analyze, buffers, format json) select id from records
        where deleted_at is null and tsv @@ mmw_workspace_query($1, to_tsquery('simple', $2))`,
      [workspaceId, query],
    );
    const scan = findScan(rows[0]?.['QUERY PLAN'][0]?.Plan);
    if (!scan) throw new Error('the word index was not used');
    return (scan['Shared Hit Blocks'] ?? 0) + (scan['Shared Read Blocks'] ?? 0);
  } finally {
    await client.end();
  }
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function findScan(node: PlanNode | undefined): PlanNode | undefined {
  if (!node) return undefined;
  if (node['Index Name'] === 'records_tsv_idx') return node;
  for (const child of node.Plans ?? []) {
    const found = findScan(child);
    if (found) return found;
  }
  return undefined;
}

describe('the word index', () => {
  it("reads a workspace's own postings of a word, not another tenant's", async () => {
    const big = await wordIndexPages(workspaces.big, 'deploy:*');
    const own = await wordIndexPages(workspaces.small, 'deploy:*');
    // 40,000 rows of the other tenant hold six words that start with deploy: many pages of postings.
    expect(big).toBeGreaterThan(20);
    expect(own).toBeLessThanOrEqual(6);
  });

  it('still finds every form and prefix of a word in its workspace', async () => {
    const pool = new pg.Pool({ connectionString: t.url, max: 1, options: `-c role=${APP_ROLE}` });
    const db = drizzle(pool, { schema }) as unknown as Db;
    try {
      for (const query of ['deploy', 'deployments', 'deplo', 'runbooks staging']) {
        const found = await searchRecords(db, small, { query, limit: 10 });
        expect(found.result.map((view) => view.content).sort(), query).toEqual(
          Array.from({ length: DEPLOYS }, (_, i) => `the staging deployment runbook ${i + 1}`).sort(),
        );
      }
    } finally {
      await pool.end();
    }
  });
});
