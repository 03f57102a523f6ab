import { and, desc, eq, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { records, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { handedOverRecords, visibleRecords } from '../visibility/visible-records.ts';
import { recordColumns } from './record-columns.ts';
import {
  drivingWords,
  horizonRows,
  levelWithin,
  lowestIndexedLevel,
  scoreOf,
  WINDOW_ROWS,
  wordShares,
  type WindowFacts,
} from './match-plan.ts';
import { recordWordsMatch } from './word-match.ts';
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
  /** Rows written by someone whose knowledge was handed over: their reads are audited as a count. */
  handedOver: Set<string>;
}

/** The columns of a returned row, and whether its author handed their knowledge over. */
function rowColumns(caller: Caller) {
  return { ...recordColumns, handedOver: sql<boolean>`${handedOverRecords(caller.accountId, records)}` };
}

function toMatches(
  rows: Array<RecordRow & { handedOver: boolean }>,
  score: (id: string) => number | undefined,
): Matches {
  const found: Matches = { rows: [], scores: new Map(), handedOver: new Set() };
  for (const { handedOver, ...row } of rows) {
    const value = score(row.id);
    if (value === undefined) continue;
    found.rows.push(row);
    found.scores.set(row.id, value);
    if (handedOver) found.handedOver.add(row.id);
  }
  return found;
}

function scopeConditions(caller: Caller, where: MatchScope): SQL[] {
  const conditions = [visibleRecords(caller, records)];
  if (where.scope !== null) conditions.push(eq(records.scope, where.scope));
  return conditions;
}

function baseConditions(caller: Caller, where: MatchScope): SQL[] {
  return [
    eq(records.workspaceId, where.workspaceId),
    isNull(records.deletedAt),
    ...scopeConditions(caller, where),
  ];
}

/**
 * Whether a record holds a query (prefix terms): in its text and source, and in fact_key when asked.
 * key_tsv is empty without a fact_key; saying `fact_key is not null` lets the planner use the
 * partial word index on fact_key for that side of the OR.
 */
function matcher(where: MatchScope) {
  const inText = (query: string) => recordWordsMatch(records.tsv, where.workspaceId, query);
  const inKey = (query: string) => recordWordsMatch(records.keyTsv, where.workspaceId, query);
  return (query: string) =>
    where.includeFactKey
      ? sql`(${inText(query)} or (${records.factKey} is not null and ${inKey(query)}))`
      : inText(query);
}

/** The latest records of the workspace: what an empty query returns. */
export async function latestRecords(
  tx: Db,
  caller: Caller,
  where: MatchScope,
  limit: number,
): Promise<Matches> {
  const rows = await tx
    .select(rowColumns(caller))
    .from(records)
    .where(and(...baseConditions(caller, where)))
    .orderBy(desc(records.updatedAt), desc(records.id))
    .limit(limit);
  return toMatches(rows, () => 0);
}

interface Window extends WindowFacts {
  /** The oldest row read, as (updated_at, id); undefined when the window holds the whole workspace. */
  boundary: { at: string; id: string } | undefined;
}

/** Scores the newest WINDOW_ROWS rows of the workspace: a bit per matched word. */
async function readWindow(
  tx: Db,
  caller: Caller,
  where: MatchScope,
  words: readonly string[],
): Promise<Window> {
  const matches = matcher(where);
  const mask = sql.join(
    words.map((word, i) => sql`((${matches(word)})::int << ${sql.raw(String(i))})`),
    sql` | `,
  );
  const rows = await tx
    .select({
      id: records.id,
      at: sql<string>`${records.updatedAt}::text`,
      ok: sql<boolean>`(${and(...scopeConditions(caller, where))})`,
      mask: sql<number>`(${mask})`,
    })
    .from(records)
    .where(and(eq(records.workspaceId, where.workspaceId), isNull(records.deletedAt)))
    .orderBy(desc(records.updatedAt), desc(records.id))
    .limit(WINDOW_ROWS);
  const last = rows.at(-1);
  const kept = rows.filter((row) => row.ok);
  return {
    qualifying: kept.length,
    matches: kept.filter((row) => row.mask !== 0).map((row) => ({ id: row.id, mask: Number(row.mask) })),
    boundary: rows.length < WINDOW_ROWS || last === undefined ? undefined : { at: last.at, id: last.id },
  };
}

/**
 * The best `limit` records by score (matched words), then by last update. `words` are the query's
 * words as tsqueries (see query-terms.ts: each an OR of what matches that word), each counted once.
 * The window of newest rows is scored first. Older rows of the levels whose words are rare (all n
 * words, at least n-1, ... down to the lowest such level) are found through the word index in the
 * whole workspace, in one scored query; the lower levels, whose rows hold only common words, in the
 * next older rows in recency order, at most `horizon` of them (the expanded pass sets its own, and
 * does not use the index). So the work stays bounded whatever the words. See match-plan.ts.
 */
export async function findMatches(
  tx: Db,
  caller: Caller,
  where: MatchScope,
  words: readonly string[],
  limit: number,
  options: { horizon?: number } = {},
): Promise<Matches> {
  const window = await readWindow(tx, caller, where, words);
  const ranked: Array<{ id: string; score: number }> = [];
  const windowAt = (k: number) =>
    window.matches.filter((match) => scoreOf(match.mask) === k).map((match) => ({ id: match.id, score: k }));
  const boundary = window.boundary;
  if (boundary === undefined) {
    for (let k = words.length; k >= 1; k--) ranked.push(...windowAt(k));
    return loadRanked(tx, caller, ranked.slice(0, limit));
  }
  const shares = wordShares(window, words.length);
  const indexedFrom = options.horizon === undefined ? lowestIndexedLevel(shares) : words.length + 1;
  const older = (
    minScore: number,
    count: number,
    read: { driver?: string[]; exclude: string[]; scanRows?: number; newestFirst?: boolean },
  ) => olderMatches(tx, caller, where, words, { boundary, minScore, limit: count, ...read });
  const indexed =
    indexedFrom <= words.length
      ? await older(indexedFrom, limit, {
          driver: drivingWords(shares, indexedFrom).map((i) => words[i] ?? ''),
          exclude: [],
        })
      : [];
  const horizon = options.horizon ?? horizonRows(words.length);
  const found = indexed.map((row) => row.id);
  let scanned: Array<{ id: string; score: number }> | undefined;
  for (let k = words.length; k >= 1 && ranked.length < limit; k--) {
    ranked.push(...windowAt(k));
    const need = limit - ranked.length;
    if (need <= 0) break;
    if (k >= indexedFrom) {
      ranked.push(...indexed.filter((row) => row.score === k));
      continue;
    }
    if (scanned === undefined && levelWithin(window, shares, k, need, horizon)) {
      // The level's rows are expected early in recency order: read until `need` are found.
      // Short of them, every row of the levels from k up in the horizon is known.
      const level = await older(k, need, { exclude: found, scanRows: horizon, newestFirst: true });
      ranked.push(...level);
      found.push(...level.map((row) => row.id));
      continue;
    }
    // The rest of the levels in one scored read of the horizon, best first.
    scanned ??= await older(1, limit, { exclude: found, scanRows: horizon });
    ranked.push(...scanned.filter((row) => row.score === k));
  }
  return loadRanked(tx, caller, ranked.slice(0, limit));
}

/**
 * Rows older than the window with at least `minScore` matched words, best first, then newest. With
 * a driver, only rows holding one of its words are read, through the word index; with scanRows,
 * only that many older rows, in recency order.
 */
async function olderMatches(
  tx: Db,
  caller: Caller,
  where: MatchScope,
  words: readonly string[],
  options: {
    boundary: { at: string; id: string };
    minScore: number;
    limit: number;
    /** Words (tsqueries): only rows holding one of them are read. */
    driver?: string[];
    exclude: string[];
    scanRows?: number;
    /** Newest first only, so that a read of scanRows stops at the first `limit` matches. */
    newestFirst?: boolean;
  },
): Promise<Array<{ id: string; score: number }>> {
  const matches = matcher(where);
  const score = sql<number>`(${sql.join(
    words.map((word) => sql`(${matches(word)})::int`),
    sql` + `,
  )})`;
  const olderThan = olderThanBoundary(options.boundary);
  if (options.scanRows !== undefined) {
    // The limit inside bounds the rows read; the filter outside stops at the first `limit` matches.
    const recent = tx
      .select({
        id: records.id,
        updatedAt: records.updatedAt,
        score: score.as('score'),
        ok: sql<boolean>`(${and(...scopeConditions(caller, where))})`.as('ok'),
      })
      .from(records)
      .where(and(eq(records.workspaceId, where.workspaceId), isNull(records.deletedAt), olderThan))
      .orderBy(desc(records.updatedAt), desc(records.id))
      .limit(options.scanRows)
      .as('recent');
    const rows = await tx
      .select({ id: recent.id, score: recent.score })
      .from(recent)
      .where(
        and(
          sql`${recent.ok}`,
          sql`${recent.score} >= ${options.minScore}`,
          options.exclude.length > 0 ? notInArray(recent.id, options.exclude) : undefined,
        ),
      )
      .orderBy(...(options.newestFirst ? [] : [desc(recent.score)]), desc(recent.updatedAt), desc(recent.id))
      .limit(options.limit);
    return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
  const conditions = [...baseConditions(caller, where), olderThan, sql`${score} >= ${options.minScore}`];
  if (options.exclude.length > 0) conditions.push(notInArray(records.id, options.exclude));
  if (options.driver) conditions.push(matches(options.driver.map((term) => `(${term})`).join(' | ')));
  const rows = await tx
    .select({ id: records.id, score })
    .from(records)
    .where(and(...conditions))
    .orderBy(desc(score), desc(records.updatedAt), desc(records.id))
    .limit(options.limit);
  return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
}

function olderThanBoundary(boundary: { at: string; id: string }): SQL {
  return sql`(${records.updatedAt}, ${records.id}) < (${boundary.at}::timestamptz, ${boundary.id}::uuid)`;
}

/** The full rows of the ranked ids, in their order. */
async function loadRanked(
  tx: Db,
  caller: Caller,
  ranked: Array<{ id: string; score: number }>,
): Promise<Matches> {
  if (ranked.length === 0) return { rows: [], scores: new Map(), handedOver: new Set() };
  const rows = await tx
    .select(rowColumns(caller))
    .from(records)
    .where(
      and(
        inArray(
          records.id,
          ranked.map((row) => row.id),
        ),
        visibleRecords(caller, records),
      ),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const scores = new Map(ranked.map((row) => [row.id, row.score]));
  const ordered = ranked.flatMap(({ id }) => byId.get(id) ?? []);
  return toMatches(ordered, (id) => scores.get(id));
}
