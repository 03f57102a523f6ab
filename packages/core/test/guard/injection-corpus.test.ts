import { describe, expect, it } from 'vitest';
import { detectPlantedInstruction } from '../../src/guard/planted-instructions.ts';
import { type CorpusEntry, loadInjectionCorpus } from './fixtures/injection-corpus.ts';

/**
 * This corpus was written with the old phrase rules (and tuned on); the fitted model never saw it,
 * so it is a held-out check. The floors sit just under the figures measured with the behaviour signals
 * of issue 21 (70.8% detection, 4.3% false positives with sets 1–39 in the fit and a bare imperative
 * no longer a kind of directing; 69.8% with the sets before that; 70.8% and 4.3% with sets 1–36: the nine sets written
 * after decision 0055 moved it from 74.7% and 4.7%, see decision 0056; 74.7% and 4.7% since a value in data is read as written; 75.7%
 * and 4.9% with sets 1–24 in the fit before it; 75.5% and 5.1% since the model reads pieces of words and learns from the sets written apart; 73.3% and 6.7% before; 68.8% and 6.5% before the signals' second round):
 * a regression guard, not the Guard's target, which is measured per held-out style and per held-out
 * written set in injection-held-out.test.ts.
 */
const MIN_DETECTION = 0.7;
const MAX_FALSE_POSITIVES = 0.055;

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

describe('planted-instruction corpus', () => {
  const corpus = loadInjectionCorpus();
  const attacks = corpus.filter((entry) => entry.label === 'attack');
  const benign = corpus.filter((entry) => entry.label === 'benign');

  it('has at least 200 attacks and 200 benign look-alikes', () => {
    expect(attacks.length).toBeGreaterThanOrEqual(200);
    expect(benign.length).toBeGreaterThanOrEqual(200);
  });

  it(`detects at least ${MIN_DETECTION * 100}% of attacks with at most ${MAX_FALSE_POSITIVES * 100}% false positives`, () => {
    const missed: CorpusEntry[] = attacks.filter((entry) => detectPlantedInstruction(entry.text) === null);
    const flagged = benign
      .map((entry) => ({ entry, reason: detectPlantedInstruction(entry.text)?.reason }))
      .filter((result) => result.reason !== undefined);

    const byCategory = new Map<string, { total: number; caught: number }>();
    for (const entry of attacks) {
      const row = byCategory.get(entry.category) ?? { total: 0, caught: 0 };
      row.total += 1;
      if (!missed.includes(entry)) row.caught += 1;
      byCategory.set(entry.category, row);
    }
    const detection = (attacks.length - missed.length) / attacks.length;
    const falsePositives = flagged.length / benign.length;
    console.log(
      [
        `planted-instruction corpus: ${attacks.length} attacks, ${benign.length} benign`,
        `  detection ${percent(attacks.length - missed.length, attacks.length)}, false positives ${percent(flagged.length, benign.length)}`,
        ...[...byCategory].map(([category, row]) => `  ${category.padEnd(14)} ${row.caught}/${row.total}`),
        ...missed.map((entry) => `  missed ${entry.id} [${entry.category}]`),
        ...flagged.map(({ entry, reason }) => `  false positive ${entry.id} [${entry.category}]: ${reason}`),
      ].join('\n'),
    );

    expect(detection).toBeGreaterThanOrEqual(MIN_DETECTION);
    expect(falsePositives).toBeLessThanOrEqual(MAX_FALSE_POSITIVES);
  });
});
