import { and, desc, eq, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { records, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { recordColumns } from './record-columns.ts';
import { atLeastQuery, prefixTerm } from './query-words.ts';
import type { RecordRow } from './record-view.ts';

export interface MatchScope {
  workspaceId: string;
  scope: string | null;
  /** The expanded pass of search also looks at fact_key. */
  includeFactKey?: boolean;
}

export interface Matches {
  rows: RecordRow[];
  scores: Map<string, number>;
}

function baseConditions(caller: Caller, where: MatchScope): SQL[] {
  const conditions = [
    eq(records.workspaceId, where.workspaceId),
    isNull(records.deletedAt),
    visibleRecords(caller, records),
  ];
  if (where.scope !== null) conditions.push(eq(records.scope, where.scope));
  return conditions;
}

function matcher(where: MatchScope) {
  return (query: string) =>
    where.includeFactKey
      ? sql`(${records.tsv} @@ to_tsquery('simple', ${query}) or ${records.keyTsv} @@ to_tsquery('simple', ${query}))`
      : sql`${records.tsv} @@ to_tsquery('simple', ${query})`;
}

/** The latest records of the workspace: what an empty query returns. */
export async function latestRecords(tx: Db, caller: Caller, where: MatchScope, limit: number): Promise<Matches> {
  const rows = await tx
    .select(recordColumns)
    .from(records)
    .where(and(...baseConditions(caller, where)))
    .orderBy(desc(records.updatedAt), desc(records.id))
    .limit(limit);
  return { rows, scores: new Map(rows.map((row) => [row.id, 0])) };
}

/**
 * The best `limit` records by score (matched words), then by last update. Rather than scoring every
 * row that holds any word, it asks for the rows holding all n words first, then at least n-1, and so
 * on, each level in updated_at order and only for the places still free: with common words the
 * first levels fill the result and the work stays bounded.
 */
export async function findMatches(
  tx: Db,
  caller: Caller,
  where: MatchScope,
  words: readonly string[],
  limit: number,
): Promise<Matches> {
  const matches = matcher(where);
  const found: Matches = { rows: [], scores: new Map() };
  for (let k = words.length; k >= 1 && found.rows.length < limit; k--) {
    const conditions = baseConditions(caller, where);
    if (found.rows.length > 0) conditions.push(notInArray(records.id, [...found.scores.keys()]));
    const query = atLeastQuery(words, k);
    if (query === undefined) {
      // Too many combinations of words: score the remaining rows that hold any word.
      await addScored(tx, found, conditions, words, limit, matches);
      break;
    }
    const rows = await tx
      .select(recordColumns)
      .from(records)
      .where(and(...conditions, matches(query)))
      .orderBy(desc(records.updatedAt), desc(records.id))
      .limit(limit - found.rows.length);
    for (const row of rows) {
      found.rows.push(row);
      found.scores.set(row.id, k);
    }
  }
  return found;
}

async function addScored(
  tx: Db,
  found: Matches,
  conditions: SQL[],
  words: readonly string[],
  limit: number,
  matches: (query: string) => SQL,
): Promise<void> {
  const score = sql<number>`(${sql.join(
    words.map((word) => sql`(${matches(prefixTerm(word))})::int`),
    sql` + `,
  )})`;
  const rows = await tx
    .select({ ...recordColumns, score })
    .from(records)
    .where(and(...conditions, matches(words.map(prefixTerm).join(' | '))))
    .orderBy(desc(score), desc(records.updatedAt), desc(records.id))
    .limit(limit - found.rows.length);
  for (const { score: rowScore, ...row } of rows) {
    found.rows.push(row);
    found.scores.set(row.id, Number(rowScore));
  }
}
