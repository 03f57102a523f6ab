import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { APP_ROLE, schema, type Db } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey, searchRecords, type Caller } from '../src/index.ts';

/**
 * Search's statements keep a good plan on a table grown 100× since its last ANALYZE (autovacuum is
 * off here): one account's records go from 500 to 50,000 and its relations from 1,000 to 100,000
 * with no ANALYZE in between. Each statement search runs is planned while the tables are small, as
 * a generic plan of a prepared statement would be and kept, and planned again for the values of
 * the moment; after the growth both plans must read rows and buffers in proportion to the result,
 * not to the account's tables.
 */
const SMALL = 500;
const GROWN = 50_000;
const WORDS = [
  'deploy',
  'staging',
  'billing',
  'retry',
  'cache',
  'queue',
  'alerts',
  'backup',
  'schema',
  'tests',
];

let t: TestDatabase;
let caller: Caller;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestDatabase(2);
  const key = await provisionKey(t.database.db, { account: 'grown', project: 'main' });
  caller = { ...key, source: 'agent' };
  const [ws] = await t.query<{ id: string }>(
    `insert into workspaces (account_id, project_id, name) values ($1, $2, 'default') returning id`,
    [key.accountId, key.projectId],
  );
  workspaceId = ws?.id ?? '';
  await grow(0, SMALL);
  await t.query('analyze records');
  await t.query('analyze record_relations');
}, 120_000);

afterAll(async () => {
  await t.drop();
});

/** Records [from, to) of the account, newest last, and two relations per record to earlier ones. */
async function grow(from: number, to: number): Promise<void> {
  await t.query(
    `insert into records (account_id, project_id, workspace_id, author_user_id, content, source, updated_at)
     select $1, $2, $3, $4,
            'note ' || i || ' about ' || ($5::text[])[1 + i % 10] || ' and ' || ($5::text[])[1 + (i * 7) % 10] || ' in service' || (i % 97),
            'agent', timestamptz '2026-01-01' + i * interval '1 second'
       from generate_series($6::int, $7::int - 1) as i`,
    [caller.accountId, caller.projectId, workspaceId, caller.userId, WORDS, from, to],
  );
  await t.query(
    `insert into record_relations (account_id, workspace_id, from_record_id, to_record_id, relation, weight)
     select $1, $2, s.id, v.to_id, 'relates_to', 0.5
       from (select id, row_number() over w as n, lag(id, 1) over w as p1, lag(id, 2) over w as p2
               from records where account_id = $1 window w as (order by updated_at)) as s,
            lateral (values (s.p1), (s.p2)) as v(to_id)
      where s.n > $3 and v.to_id is not null`,
    [caller.accountId, workspaceId, from],
  );
}

interface Captured {
  text: string;
  params: unknown[];
}

/** Runs a search through core on a pool of its own whose statements are written down. */
async function captureSearch(query: string, database = t, as = caller): Promise<Captured[]> {
  const captured: Captured[] = [];
  const pool = new pg.Pool({
    connectionString: database.url,
    max: 1,
    options: `-c role=${APP_ROLE} -c jit=off`,
  });
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (text, params) => captured.push({ text, params }) },
  }) as unknown as Db;
  try {
    await searchRecords(db, as, { query, workspace: 'default', limit: 10 });
  } finally {
    await pool.end();
  }
  return captured.filter(
    (statement) => /^\s*(?:\(\s*)?select\b/i.test(statement.text) && !statement.text.includes('set_config'),
  );
}

/** A parameter as a literal for EXECUTE; arrays in PostgreSQL's array syntax. */
function literal(client: pg.Client, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value))
    return client.escapeLiteral(
      `{${value.map((item) => `"${String(item).replace(/["\\]/g, '\\$&')}"`).join(',')}}`,
    );
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  if (typeof value === 'string') return client.escapeLiteral(value);
  if (typeof value === 'number' || typeof value === 'boolean') return client.escapeLiteral(String(value));
  return client.escapeLiteral(JSON.stringify(value));
}

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

/** The most rows any node of the plan touched (returned and filtered out), over all its loops. */
function rowsTouched(node: PlanNode): number {
  const own =
    ((node['Actual Rows'] ?? 0) +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0)) *
    (node['Actual Loops'] ?? 1);
  return Math.max(own, ...(node.Plans ?? []).map(rowsTouched));
}

/** The most rows each statement touches, run again as captured (its plan made at the table's size now). */
async function rowsTouchedAgain(
  database: TestDatabase,
  accountId: string,
  statements: Captured[],
): Promise<Array<{ text: string; rows: number }>> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await client.query(`set role ${APP_ROLE}`);
    await client.query('set jit = off');
    await client.query(`select set_config('mmw.account_id', $1, false)`, [accountId]);
    const touched: Array<{ text: string; rows: number }> = [];
    for (const s of statements) {
      const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        `explain (analyze, buffers, format json) ${s.text}`,
        s.params,
      );
      const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
      if (!plan) throw new Error('no plan');
      touched.push({ text: s.text.slice(0, 160), rows: rowsTouched(plan) });
    }
    return touched;
  } finally {
    await client.end();
  }
}

describe('search on a table grown 100× since its last ANALYZE', () => {
  it('reads rows and buffers bounded by the result, in generic and in custom plans', async () => {
    const queries = [
      'deploy',
      'billing retry queue',
      'how do we roll back a bad deploy of staging?',
      'service42',
    ];
    const statements = (await Promise.all(queries.map((query) => captureSearch(query)))).flat();
    expect(statements.some((s) => s.text.includes('"record_relations"'))).toBe(true);
    const client = new pg.Client({ connectionString: t.url });
    await client.connect();
    try {
      await client.query(`set role ${APP_ROLE}`);
      await client.query('set jit = off');
      await client.query(`select set_config('mmw.account_id', $1, false)`, [caller.accountId]);
      // Planned while the tables are small: the generic plans are made and cached now.
      await client.query('set plan_cache_mode = force_generic_plan');
      for (const [i, s] of statements.entries()) {
        await client.query(`prepare generic_${i} as ${s.text}`);
        await client.query(`execute generic_${i}(${s.params.map((p) => literal(client, p)).join(', ')})`);
      }
      await grow(SMALL, GROWN);
      const [counts] = await t.query<{ records: string; relations: string }>(
        'select (select count(*) from records) as records, (select count(*) from record_relations) as relations',
      );
      expect(Number(counts?.records)).toBe(GROWN);
      expect(Number(counts?.relations)).toBeGreaterThanOrEqual(2 * GROWN - 3);
      for (const [i, s] of statements.entries()) {
        const args = s.params.map((p) => literal(client, p)).join(', ');
        await client.query('set plan_cache_mode = force_custom_plan');
        await client.query(`prepare custom_${i} as ${s.text}`);
        for (const name of [`generic_${i}`, `custom_${i}`]) {
          const { rows } = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
            `explain (analyze, buffers, format json) execute ${name}(${args})`,
          );
          const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
          if (!plan) throw new Error('no plan');
          const buffers = (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0);
          const label = `${name}: ${s.text.slice(0, 160)}`;
          // The window reads 400 rows, the expanded pass up to 2,000, the horizon 10,000 at most: far
          // below the 50,000 records and 100,000 relations of the account.
          expect(rowsTouched(plan), label).toBeLessThanOrEqual(12_000);
          expect(buffers, label).toBeLessThanOrEqual(3_000);
        }
      }
    } finally {
      await client.end();
    }
  }, 300_000);

  it('reads older rows bounded by the horizon for a long query of common words, planned at the size it has', async () => {
    // 2,000 characters of the workspace's ten common words: a record holds two of them, so every
    // level above two is empty, and the word index would read most of the account for each.
    const long = `${WORDS.join(' ')} `.repeat(40).slice(0, 2_000);
    const statements = await captureSearch(long);
    // The window's 400 rows and 4,000 older ones (40,000 matches over ten words).
    for (const { text, rows } of await rowsTouchedAgain(t, caller.accountId, statements))
      expect(rows, text).toBeLessThanOrEqual(5_000);
  }, 120_000);
});

describe('search on a table never analysed', () => {
  // The embedded database of a first run never runs ANALYZE: with no statistics at all, the planner
  // takes the account's rows for a handful, and a plan that scans them for each record of a result
  // (the graph's other ends) read 5,000 records ten times per search.
  it('reads rows bounded by the result', async () => {
    const fresh = await createTestDatabase(2);
    try {
      const key = await provisionKey(fresh.database.db, { account: 'fresh', project: 'main' });
      const freshCaller: Caller = { ...key, source: 'agent' };
      const [ws] = await fresh.query<{ id: string }>(
        `insert into workspaces (account_id, project_id, name) values ($1, $2, 'default') returning id`,
        [key.accountId, key.projectId],
      );
      await fresh.query(
        `insert into records (account_id, project_id, workspace_id, author_user_id, content, source, updated_at)
         select $1, $2, $3, $4, 'note ' || i || ' about ' || ($5::text[])[1 + i % 10] || ' in service' || (i % 97),
                'agent', timestamptz '2026-01-01' + i * interval '1 second'
           from generate_series(0, 4999) as i`,
        [key.accountId, key.projectId, ws?.id, key.userId, WORDS],
      );
      await fresh.query(
        `insert into record_relations (account_id, workspace_id, from_record_id, to_record_id, relation, weight)
         select $1, $2, s.id, v.to_id, 'relates_to', 0.5
           from (select id, lag(id, 1) over w as p1, lag(id, 2) over w as p2
                   from records window w as (order by updated_at)) as s,
                lateral (values (s.p1), (s.p2)) as v(to_id)
          where v.to_id is not null`,
        [key.accountId, ws?.id],
      );
      const statements = (
        await Promise.all(
          ['deploy', 'how do we roll back a bad deploy of staging?'].map((query) =>
            captureSearch(query, fresh, freshCaller),
          ),
        )
      ).flat();
      // The window reads 400 rows; a level lookup in recency order, up to the whole workspace once.
      for (const { text, rows } of await rowsTouchedAgain(fresh, key.accountId, statements))
        expect(rows, text).toBeLessThanOrEqual(5_000);
    } finally {
      await fresh.drop();
    }
  }, 120_000);
});
