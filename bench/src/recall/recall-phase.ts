import { readFileSync } from 'node:fs';
import { createBuiltInExpander, provisionKey, searchRecords, splitQueryWords, type Caller } from '@mmw/core';
import type { Db } from '@mmw/db';
import type { BenchDatabase } from '../bench-database.ts';
import { percentile } from '../load.ts';
import type { LabelledSet } from './labelled-set.ts';

export interface Scores {
  questions: number;
  at5: number;
  at10: number;
  mrr: number;
}

export interface RecallResult {
  set: string;
  /** By kind, then 'all': MMW's search, and plain PostgreSQL full-text search on the same questions. */
  mmw: Map<string, Scores>;
  baseline: Map<string, Scores>;
  latencyMs: { p50: number; p95: number };
  /** Questions whose answer search left out of its top 5: to read on the tuning half, never to tune the held-out one. */
  misses: Array<{ kind: string; text: string; answer: string; found: string[] }>;
}

export function readSet(name: string): LabelledSet {
  return JSON.parse(readFileSync(new URL(`../../data/${name}-set.json`, import.meta.url), 'utf8')) as LabelledSet;
}

/** Loads a set's records as written in order, one workspace each as the set says; record ids by key. */
async function loadSet(bench: BenchDatabase, caller: Caller, set: LabelledSet): Promise<Map<string, string>> {
  const names = [...new Set(set.records.map((record) => record.workspace))];
  const workspaces = await bench.admin<{ id: string; name: string }>(
    `insert into workspaces (account_id, project_id, name) select $1, $2, unnest($3::text[]) returning id, name`,
    [caller.accountId, caller.projectId, names],
  );
  const workspaceIds = new Map(workspaces.map((row) => [row.name, row.id]));
  const rows = await bench.admin<{ id: string; key: string }>(
    `insert into records (account_id, project_id, workspace_id, author_user_id, content, source, source_id, created_at, updated_at)
     select $1, $2, w, $3, c, 'agent', s, t, t
       from unnest($4::uuid[], $5::text[], $6::text[], $7::timestamptz[]) as r(w, c, s, t)
     returning id, source_id as key`,
    [
      caller.accountId,
      caller.projectId,
      caller.userId,
      set.records.map((record) => workspaceIds.get(record.workspace)),
      set.records.map((record) => record.content),
      set.records.map((record) => record.sourceId ?? record.key),
      set.records.map((_, i) => new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString()),
    ],
  );
  await bench.admin('analyze records');
  return new Map(rows.map((row) => [row.id, row.key]));
}

/** Plain PostgreSQL: the OR of the question's words, English full-text search, ranked by ts_rank_cd. */
async function baselineSearch(bench: BenchDatabase, workspaceId: string, text: string): Promise<string[]> {
  const words = splitQueryWords(text);
  if (words.length === 0) return [];
  const rows = await bench.admin<{ id: string }>(
    `select id from records, to_tsquery('english', $2) as q
      where workspace_id = $1 and to_tsvector('english', content) @@ q
      order by ts_rank_cd(to_tsvector('english', content), q) desc, updated_at desc limit 10`,
    [workspaceId, words.join(' | ')],
  );
  return rows.map((row) => row.id);
}

function score(found: string[], answers: string[]): { at5: number; at10: number; rr: number } {
  const rank = found.findIndex((key) => answers.includes(key));
  return { at5: rank >= 0 && rank < 5 ? 1 : 0, at10: rank >= 0 && rank < 10 ? 1 : 0, rr: rank >= 0 ? 1 / (rank + 1) : 0 };
}

function add(table: Map<string, Scores>, kind: string, result: { at5: number; at10: number; rr: number }): void {
  for (const key of [kind, 'all']) {
    const scores = table.get(key) ?? { questions: 0, at5: 0, at10: 0, mrr: 0 };
    scores.questions++;
    scores.at5 += result.at5;
    scores.at10 += result.at10;
    scores.mrr += result.rr;
    table.set(key, scores);
  }
}

/** Recall of one set's questions of one half: search through core, as every door calls it. */
export async function measureRecall(
  bench: BenchDatabase,
  db: Db,
  set: LabelledSet,
  half: 'tuning' | 'held-out',
): Promise<RecallResult> {
  const key = await provisionKey(db, { account: `recall-${set.name}-${half}`, project: 'main' });
  const caller: Caller = { ...key, source: 'agent' };
  const keys = await loadSet(bench, caller, set);
  const workspaceIds = new Map(
    (await bench.admin<{ id: string; name: string }>('select id, name from workspaces where account_id = $1', [key.accountId])).map(
      (row) => [row.name, row.id],
    ),
  );
  const expander = createBuiltInExpander();
  const result: RecallResult = { set: set.name, mmw: new Map(), baseline: new Map(), latencyMs: { p50: 0, p95: 0 }, misses: [] };
  const contents = new Map(set.records.map((record) => [record.key, record.content]));
  const took: number[] = [];
  for (const question of set.questions.filter((q) => q.half === half)) {
    const started = performance.now();
    const found = await searchRecords(db, caller, { query: question.text, workspace: question.workspace, limit: 10 }, expander);
    took.push(performance.now() - started);
    const scored = score(found.result.map((record) => keys.get(record.id) ?? ''), question.answers);
    add(result.mmw, question.kind, scored);
    if (scored.at5 === 0)
      result.misses.push({
        kind: question.kind,
        text: question.text,
        answer: question.answers.map((answer) => contents.get(answer) ?? answer).join(' / '),
        found: found.result.slice(0, 3).map((record) => `${record.score ?? 0}: ${record.content}`),
      });
    const plain = await baselineSearch(bench, workspaceIds.get(question.workspace) ?? '', question.text);
    add(result.baseline, question.kind, score(plain.map((id) => keys.get(id) ?? ''), question.answers));
  }
  took.sort((a, b) => a - b);
  result.latencyMs = { p50: percentile(took, 50), p95: percentile(took, 95) };
  return result;
}
