import { executeSqlOn, withTenant, type Db } from '@mmw/db';
import { splitQueryWords } from '@mmw/core';

/**
 * The query search is compared with: the OR of the words over the GIN tsvector index, the score
 * (matched words) computed for every row that holds any word, sorted, then the limit.
 */
export async function straightforwardSearch(
  db: Db,
  accountId: string,
  workspaceId: string,
  query: string,
  limit = 10,
): Promise<number> {
  const terms = splitQueryWords(query).map((word) => `${word}:*`);
  // The record's words carry its workspace's tag (decision 0046): the query's get the same.
  const matches = (param: string) => `tsv @@ mmw_workspace_query($1, to_tsquery('simple', ${param}))`;
  const score = terms.map((_, i) => `(${matches(`$${i + 4}`)})::int`).join(' + ');
  return withTenant(db, accountId, async (tx) => {
    const { rows } = await executeSqlOn(tx)(
      `select id, workspace_id, content, source, source_id, source_hash, source_revision, fact_key, confidence,
              scope, derived_from, superseded_by, archivist_mark, created_at, updated_at, ${score} as score
         from records
        where workspace_id = $1 and deleted_at is null and ${matches('$2')}
        order by score desc, updated_at desc
        limit $3`,
      [workspaceId, terms.join(' | '), limit, ...terms],
    );
    return rows.length;
  });
}
