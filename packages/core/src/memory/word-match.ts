import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Whether a row's words hold a tsquery over the simple configuration: the one match of search, for
 * uploaded session messages here and for records below (both index their words and their English
 * stems, split on anything that is not a letter or digit). A query word becomes such a tsquery in
 * query-terms.ts.
 */
export function wordsMatch(tsv: AnyColumn | SQL, query: string): SQL {
  return sql`${tsv} @@ to_tsquery('simple', ${query})`;
}

/**
 * Whether a record's words hold a tsquery: records.tsv and key_tsv carry their workspace's tag on
 * every word (migration 0032), so the query gets the same tag, and the word index reads only that
 * workspace's postings.
 */
export function recordWordsMatch(tsv: AnyColumn | SQL, workspaceId: string, query: string): SQL {
  return sql`${tsv} @@ mmw_workspace_query(${workspaceId}::uuid, to_tsquery('simple', ${query}))`;
}

/** How many of the query's terms a row holds: search's score. */
export function matchedWordCount(tsv: AnyColumn | SQL, tsqueries: readonly string[]): SQL<number> {
  return sql<number>`(${sql.join(
    tsqueries.map((query) => sql`(${wordsMatch(tsv, query)})::int`),
    sql` + `,
  )})`;
}

/** Whether a row holds any of the query's terms. */
export function anyWordMatches(tsv: AnyColumn | SQL, tsqueries: readonly string[]): SQL {
  return wordsMatch(tsv, tsqueries.map((query) => `(${query})`).join(' | '));
}
