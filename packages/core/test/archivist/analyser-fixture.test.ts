import { describe, expect, it } from 'vitest';
import { createBuiltInAnalyser } from '../../src/archivist/analyser.ts';
import { evaluatePairs, formatScores, loadPairs, scoreOutcomes } from './pair-evaluation.ts';

describe('built-in analyser on the labelled fixture', () => {
  it('keeps overall precision at 0.8 or better', async () => {
    const pairs = loadPairs();
    const outcomes = await evaluatePairs(createBuiltInAnalyser(), pairs);
    const scores = scoreOutcomes(outcomes);
    console.log(`built-in analyser on ${pairs.length} labelled pairs\n${formatScores(scores)}`);
    const misses = outcomes.filter((o) => o.predicted !== o.pair.label);
    console.log(
      misses.map((o) => `${o.pair.id}: labelled ${o.pair.label}, proposed ${o.predicted}`).join('\n'),
    );

    expect(pairs.length).toBeGreaterThanOrEqual(100);
    expect(scores.overall?.precision).toBeGreaterThanOrEqual(0.8);
  });

  it('covers every relation and hard negatives in the fixture', () => {
    const labels = new Map<string, number>();
    for (const pair of loadPairs()) labels.set(pair.label, (labels.get(pair.label) ?? 0) + 1);
    for (const label of ['relates_to', 'fixes_issue', 'supersedes', 'none']) {
      expect(labels.get(label) ?? 0).toBeGreaterThanOrEqual(20);
    }
  });
});
