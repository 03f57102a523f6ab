import { provisionKey, searchRecords, type Caller } from '@mmw/core';
import type { Db } from '@mmw/db';
import type { BenchDatabase } from './bench-database.ts';
import { BulkLoader } from './bulk-load.ts';
import { COMMON_QUERIES, QUESTION_QUERIES, WORKSPACES } from './corpus.ts';
import { sequential, type LoadResult } from './load.ts';
import { rareQueries } from './search-phase.ts';

const SMALL = 500;
const GROWN = 50_000;
const SEARCHES = 100;

export interface StaleStatisticsFigures {
  records: number;
  relations: number;
  /** Per kind of query: searches on the table as grown, then after ANALYZE. */
  kinds: Array<{ kind: string; stale: LoadResult; analysed: LoadResult }>;
}

/**
 * Search on a table grown 100× since its last ANALYZE (autovacuum is off on these machines, lags
 * behind a burst of writes in production, and never runs in the embedded database): one account
 * of 500 records and about 1,000 relations, analysed, grows to 50,000 records and about 100,000
 * relations with the indexes in place and no ANALYZE; search in process, then again after ANALYZE.
 */
export async function measureStaleStatistics(bench: BenchDatabase, db: Db): Promise<StaleStatisticsFigures> {
  const key = await provisionKey(db, { account: 'grown-org', project: 'main', member: 'grown@bench.local' });
  const [workspace] = await bench.admin<{ id: string }>(
    `insert into workspaces (account_id, project_id, name) values ($1, $2, 'default') returning id`,
    [key.accountId, key.projectId],
  );
  const workspaceId = workspace?.id ?? '';
  const caller: Caller = { ...key, source: 'agent' };
  // Every record of the corpus lands in the one workspace of the account.
  const loader = new BulkLoader(bench.url, { ...key, workspaceIds: Array<string>(WORKSPACES).fill(workspaceId) });
  const relate = async () =>
    // Each record relates to the two before it, as the archivist links records of one topic.
    bench.admin(
      `insert into record_relations (account_id, workspace_id, from_record_id, to_record_id, relation, weight)
       select $1, $2, s.id, v.to_id, 'relates_to', 0.5
         from (select id, lag(id, 1) over w as p1, lag(id, 2) over w as p2
                 from records where account_id = $1 window w as (order by updated_at, id)) as s,
              lateral (values (s.p1), (s.p2)) as v(to_id)
        where v.to_id is not null
       on conflict do nothing`,
      [key.accountId, workspaceId],
    );
  await loader.load(0, SMALL);
  await relate();
  await bench.admin('analyze records');
  await bench.admin('analyze record_relations');
  await loader.load(SMALL, GROWN, undefined, { stale: true });
  await relate();
  const [counts] = await bench.admin<{ records: string; relations: string }>(
    `select (select count(*) from records where account_id = $1) as records,
            (select count(*) from record_relations where account_id = $1) as relations`,
    [key.accountId],
  );
  const kinds: Array<[string, string[]]> = [
    ['rare', rareQueries(loader.searchedRareWords)],
    ['common', [...COMMON_QUERIES]],
    ['question', [...QUESTION_QUERIES]],
  ];
  const run = (queries: readonly string[]) =>
    sequential(SEARCHES, async (_, i) => {
      await searchRecords(db, caller, { query: queries[i % queries.length] ?? '' });
      return undefined;
    });
  const stale = [];
  for (const [kind, queries] of kinds) stale.push({ kind, result: await run(queries) });
  await bench.admin('analyze records');
  await bench.admin('analyze record_relations');
  const figures: StaleStatisticsFigures = {
    records: Number(counts?.records),
    relations: Number(counts?.relations),
    kinds: [],
  };
  for (const [i, [kind, queries]] of kinds.entries())
    figures.kinds.push({ kind, stale: stale[i]?.result ?? (await run(queries)), analysed: await run(queries) });
  return figures;
}
