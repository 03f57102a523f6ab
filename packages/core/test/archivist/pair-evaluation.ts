import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Analyser, ArchivistRecord } from '../../src/archivist/analyser.ts';

const side = z.object({
  content: z.string().min(1),
  factKey: z.string().optional(),
  sourceId: z.string().optional(),
});
const label = z.enum(['relates_to', 'fixes_issue', 'supersedes', 'none']);
const pairSchema = z.object({
  id: z.string(),
  label,
  mark: z.enum(['stale', 'refined']).optional(),
  note: z.string().optional(),
  older: side,
  newer: side,
});
export type Label = z.infer<typeof label>;
export type LabelledPair = z.infer<typeof pairSchema>;

export function loadPairs(): LabelledPair[] {
  const raw: unknown = JSON.parse(readFileSync(new URL('./fixtures/pairs.json', import.meta.url), 'utf8'));
  return z.object({ pairs: z.array(pairSchema).min(100) }).parse(raw).pairs;
}

const day = 86_400_000;
const start = Date.UTC(2025, 0, 1);

function toRecord(id: string, s: z.infer<typeof side>, createdAt: number): ArchivistRecord {
  return {
    id,
    content: s.content,
    factKey: s.factKey ?? null,
    sourceId: s.sourceId ?? null,
    sourceHash: null,
    createdAt: new Date(createdAt),
  };
}

export interface PairOutcome {
  pair: LabelledPair;
  predicted: Label;
  mark: 'stale' | 'refined' | null;
  reason: string | null;
}

/**
 * Each pair's newer record is analysed against its older record plus 49 older records of other
 * pairs, spread over the fixture, as the workspace background the lead would supply. Only the
 * relation to the pair's own older record is scored; links to the background are unlabelled.
 */
export async function evaluatePairs(analyser: Analyser, pairs: LabelledPair[]): Promise<PairOutcome[]> {
  const olders = pairs.map((pair, index) => toRecord(`old-${pair.id}`, pair.older, start + index * 60_000));
  const outcomes: PairOutcome[] = [];
  for (const [index, pair] of pairs.entries()) {
    const background: ArchivistRecord[] = [];
    for (let k = 1; k < 50 && k < pairs.length; k += 1) {
      const other = olders[(index + Math.floor((k * pairs.length) / 50)) % pairs.length];
      if (other !== undefined && other.id !== `old-${pair.id}` && !background.includes(other))
        background.push(other);
    }
    const own = olders[index];
    if (own === undefined) continue;
    const record = toRecord(`new-${pair.id}`, pair.newer, start + 30 * day + index * 60_000);
    const analysis = await analyser.analyse({ record, candidates: [own, ...background] });
    const relation = analysis.relations.find((r) => r.toId === own.id);
    const mark = analysis.marks.find((m) => m.recordId === own.id);
    outcomes.push({
      pair,
      predicted: relation?.relation ?? 'none',
      mark: mark?.mark ?? null,
      reason: relation?.reason ?? null,
    });
  }
  return outcomes;
}

export interface Score {
  precision: number;
  recall: number;
  predicted: number;
  expected: number;
  correct: number;
}

function score(correct: number, predicted: number, expected: number): Score {
  return {
    precision: predicted === 0 ? 1 : correct / predicted,
    recall: expected === 0 ? 1 : correct / expected,
    predicted,
    expected,
    correct,
  };
}

/** Precision and recall of the proposed relations, overall (any relation) and per relation. */
export function scoreOutcomes(outcomes: PairOutcome[]): Record<string, Score> {
  const result: Record<string, Score> = {};
  const relations: Label[] = ['relates_to', 'fixes_issue', 'supersedes'];
  for (const relation of relations) {
    const predicted = outcomes.filter((o) => o.predicted === relation).length;
    const expected = outcomes.filter((o) => o.pair.label === relation).length;
    const correct = outcomes.filter((o) => o.predicted === relation && o.pair.label === relation).length;
    result[relation] = score(correct, predicted, expected);
  }
  const predicted = outcomes.filter((o) => o.predicted !== 'none').length;
  const expected = outcomes.filter((o) => o.pair.label !== 'none').length;
  const correct = outcomes.filter((o) => o.predicted !== 'none' && o.predicted === o.pair.label).length;
  result.overall = score(correct, predicted, expected);
  for (const mark of ['stale', 'refined'] as const) {
    const p = outcomes.filter((o) => o.mark === mark).length;
    const e = outcomes.filter((o) => o.pair.mark === mark).length;
    const c = outcomes.filter((o) => o.mark === mark && o.pair.mark === mark).length;
    result[`mark ${mark}`] = score(c, p, e);
  }
  return result;
}

export function formatScores(scores: Record<string, Score>): string {
  const rows = Object.entries(scores).map(
    ([name, s]) =>
      `${name.padEnd(14)} precision ${s.precision.toFixed(3)}  recall ${s.recall.toFixed(3)}  ` +
      `(${s.correct} correct of ${s.predicted} proposed, ${s.expected} labelled)`,
  );
  return rows.join('\n');
}
