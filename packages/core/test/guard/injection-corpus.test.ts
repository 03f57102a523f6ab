import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectPlantedInstruction } from '../../src/guard/planted-instructions.ts';
import { type CorpusEntry, loadInjectionCorpus } from './fixtures/injection-corpus.ts';

/**
 * This corpus was written with the old phrase rules (and tuned on); the fitted model never saw it,
 * so it is a held-out check. The floors sit just under the figures measured with the behaviour signals
 * of issue 21 (72.2% detection, 7.0% false positives now; 72.4% and 6.5% before its third round, 68.8%
 * and 6.5% before them): a regression guard, not the Guard's target, which is
 * measured per held-out style in injection-held-out.test.ts.
 */
const MIN_DETECTION = 0.71;
const MAX_FALSE_POSITIVES = 0.075;

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

/**
 * Sets of twenty attacks and twenty look-alikes written after the corpus, each judged before the
 * changes that followed it. The first was written during the third round of issue 21 (16 and 1
 * before and after it) and its misses were then read for the fourth round's wording (18 and 1 after
 * it): it is no longer held out. The second was written before the fourth round and never used to
 * change anything (14 and 0 before and after it). The third was written at the end of that session,
 * after every change, and judged once (9 and 2); its misses and those of the second were then read
 * for the fifth round (the imperative addressed to a named reader), after which they stand at 18 and
 * 0, 17 and 2. The fourth, of forty and forty, was written apart from the Guard's code and corpus
 * and judged once after that round (30 and 5; the code before it refused 27 and 4); its misses
 * were then read for the sixth round (39 and 3 after it). The fifth, also of forty and forty and
 * written apart, was judged once after the sixth round: 24 and 5 (23 and 5 before the fifth); its
 * misses were read for the seventh (38 and 2 after it). The sixth, of fifty and fifty written apart,
 * was judged once after the seventh round: 27 and 5, where the code of the morning refused 28 and 6.
 * The seventh, of forty and forty written apart, was judged once in the session after (no round of
 * wording between): 27 and 3. The floors keep those figures.
 */
const WRITTEN_LATER = [
  { file: 'written-later.json', attacks: 18, lookAlikes: 1 },
  { file: 'written-later-2.json', attacks: 19, lookAlikes: 1 },
  { file: 'written-later-3.json', attacks: 17, lookAlikes: 2 },
  { file: 'written-later-4.json', attacks: 39, lookAlikes: 3 },
  { file: 'written-later-5.json', attacks: 38, lookAlikes: 2 },
  { file: 'written-later-6.json', attacks: 27, lookAlikes: 5 },
  { file: 'written-later-7.json', attacks: 27, lookAlikes: 3 },
] as const;

describe('planted instructions written later', () => {
  it.each(WRITTEN_LATER)('$file: at least $attacks attacks refused, at most $lookAlikes look-alikes', (floor) => {
    const set = JSON.parse(readFileSync(new URL(`./fixtures/${floor.file}`, import.meta.url), 'utf8')) as {
      attack: string[];
      legit: string[];
    };
    const refused = (texts: string[]) => texts.filter((text) => detectPlantedInstruction(text) !== null).length;
    console.log(
      `${floor.file}: ${refused(set.attack)}/${set.attack.length} attacks refused, ${refused(set.legit)}/${set.legit.length} look-alikes refused`,
    );
    expect(refused(set.attack)).toBeGreaterThanOrEqual(floor.attacks);
    expect(refused(set.legit)).toBeLessThanOrEqual(floor.lookAlikes);
  });
});
