import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { prefixTerm } from './query-words.ts';

/**
 * Whether a row's words hold a query of prefix terms: the one match of search, for records and for
 * uploaded session messages alike (both index their words as `simple` tsvectors split on anything
 * that is not a letter or digit).
 */
export function wordsMatch(tsv: AnyColumn | SQL, query: string): SQL {
  return sql`${tsv} @@ to_tsquery('simple', ${query})`;
}

/** How many of the words a row holds: search's score. */
export function matchedWordCount(tsv: AnyColumn | SQL, words: readonly string[]): SQL<number> {
  return sql<number>`(${sql.join(
    words.map((word) => sql`(${wordsMatch(tsv, prefixTerm(word))})::int`),
    sql` + `,
  )})`;
}

/** Whether a row holds any of the words. */
export function anyWordMatches(tsv: AnyColumn | SQL, words: readonly string[]): SQL {
  return wordsMatch(tsv, words.map(prefixTerm).join(' | '));
}
