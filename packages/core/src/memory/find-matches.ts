import { and, desc, eq, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import { records, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { handedOverRecords, visibleRecords } from '../visibility/visible-records.ts';
import { recordColumns } from './record-columns.ts';
import {
  allWordsRare,
  bestWindowScore,
  drivingGroups,
  planLevel,
  scoreOf,
  WINDOW_ROWS,
  wordShares,
  type LevelPlan,
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
 * words as tsqueries (see query-terms.ts: each an OR of what matches that word), each counted once. The window of newest
 * rows is scored first; rows older than it are looked for level by level (all n words, then at
 * least n-1, ...), each level in recency order and only for the places still free, so the work
 * stays bounded when common words match most of a large workspace. See match-plan.ts.
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
  const older = (
    k: number,
    count: number,
    options: { driver?: string[][]; byScore?: boolean; exclude: string[]; scanRows?: number },
  ) => olderMatches(tx, caller, where, words, { boundary, minScore: k, limit: count, ...options });
  const shares = wordShares(window, words.length);
  if (allWordsRare(shares)) {
    // Every word is rare: one scored query through the word index covers every level.
    const found = await older(1, limit, { driver: words.map((word) => [word]), byScore: true, exclude: [] });
    for (let k = words.length; k >= 1; k--)
      ranked.push(...windowAt(k), ...found.filter((row) => row.score === k));
    return loadRanked(tx, caller, ranked.slice(0, limit));
  }
  if (options.horizon !== undefined) {
    // A bounded search (the expanded pass): the rows just older than the window, up to the horizon,
    // scored in one statement, best first.
    const found = await older(1, limit, { byScore: true, exclude: [], scanRows: options.horizon });
    for (let k = words.length; k >= 1; k--)
      ranked.push(...windowAt(k), ...found.filter((row) => row.score === k));
    return loadRanked(tx, caller, ranked.slice(0, limit));
  }
  // Older rows with k words (all with more were found already), newest first.
  const findLevel = async (plan: LevelPlan, k: number, need: number, exclude: string[]) => {
    if (plan.kind === 'recent') return older(k, need, { exclude });
    // Through the word index the rows are scored and sorted (all have k words, so this is recency
    // order): ordered by recency alone, the planner could walk the recency index instead, and a
    // level the window saw no row of may hold none in the whole workspace.
    const driver = plan.driver.map((group) => group.map((i) => words[i] ?? ''));
    if (plan.kind === 'indexed') return older(k, need, { driver, byScore: true, exclude });
    const probed = await older(k, need, { exclude, scanRows: plan.rows });
    if (probed.length === need) return probed;
    const next = await boundaryAfter(tx, where, boundary, plan.rows);
    if (next === undefined) return probed;
    const rest = await olderMatches(tx, caller, where, words, {
      boundary: next,
      minScore: k,
      limit: need - probed.length,
      driver,
      byScore: true,
      exclude,
    });
    return [...probed, ...rest];
  };
  const olderFound: string[] = [];
  // The window holds no row with more than `best` words. Of the levels above, those that the plan
  // looks up through the word index are looked up together: one scored query, best first, driven
  // by the words any row of the lowest of them must hold (a long expanded query would otherwise
  // read the same postings once per level).
  const best = bestWindowScore(window);
  let lowest = words.length + 1;
  while (lowest - 1 > best && planLevel(window, shares, lowest - 1, limit).kind === 'indexed') lowest--;
  if (lowest <= words.length) {
    const driver = drivingGroups(shares, lowest).map((group) => group.map((i) => words[i] ?? ''));
    const found = await older(lowest, limit, { driver, byScore: true, exclude: [] });
    ranked.push(...found);
    olderFound.push(...found.map((row) => row.id));
  }
  const top = lowest - 1;
  for (let k = top; k >= 1 && ranked.length < limit; k--) {
    ranked.push(...windowAt(k));
    const need = limit - ranked.length;
    if (need <= 0) break;
    const plan = planLevel(window, shares, k, need);
    const found = await findLevel(plan, k, need, olderFound);
    ranked.push(...found);
    olderFound.push(...found.map((row) => row.id));
  }
  return loadRanked(tx, caller, ranked.slice(0, limit));
}

/**
 * Rows older than the window with at least `minScore` matched words, newest first (or best first
 * with byScore). With a driver, only rows holding one of its words are read, through the word index.
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
    /** Groups of words: only rows holding every word of one group are read (see drivingGroups). */
    driver?: string[][];
    byScore?: boolean;
    exclude: string[];
    /** Read only this many older rows, in recency order (then ranked by score with byScore). */
    scanRows?: number;
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
      .orderBy(...(options.byScore ? [desc(recent.score)] : []), desc(recent.updatedAt), desc(recent.id))
      .limit(options.limit);
    return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
  const conditions = [...baseConditions(caller, where), olderThan, sql`${score} >= ${options.minScore}`];
  if (options.exclude.length > 0) conditions.push(notInArray(records.id, options.exclude));
  if (options.driver) {
    // Over text and fact_key, a pair may be split between the two: any word of the groups drives.
    const groups = where.includeFactKey
      ? [...new Set(options.driver.flat())].map((term) => [term])
      : options.driver;
    const query = groups.map((group) => `(${group.map((term) => `(${term})`).join(' & ')})`).join(' | ');
    conditions.push(matches(query));
  }
  const order = options.byScore
    ? [desc(score), desc(records.updatedAt), desc(records.id)]
    : [desc(records.updatedAt), desc(records.id)];
  const rows = await tx
    .select({ id: records.id, score })
    .from(records)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(options.limit);
  return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
}

function olderThanBoundary(boundary: { at: string; id: string }): SQL {
  return sql`(${records.updatedAt}, ${records.id}) < (${boundary.at}::timestamptz, ${boundary.id}::uuid)`;
}

/** The row `rows` places older than the boundary (the end of a probe), from the recency index alone. */
async function boundaryAfter(
  tx: Db,
  where: MatchScope,
  boundary: { at: string; id: string },
  rows: number,
): Promise<{ at: string; id: string } | undefined> {
  const [row] = await tx
    .select({ at: sql<string>`${records.updatedAt}::text`, id: records.id })
    .from(records)
    .where(
      and(eq(records.workspaceId, where.workspaceId), isNull(records.deletedAt), olderThanBoundary(boundary)),
    )
    .orderBy(desc(records.updatedAt), desc(records.id))
    .offset(rows - 1)
    .limit(1);
  return row;
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
