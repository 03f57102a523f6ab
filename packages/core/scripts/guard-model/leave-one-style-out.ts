/**
 * The planted-instruction model's quality on what it was not fitted on: for each style of the corpus,
 * fit on every other style (and the written sets) and judge that one; for each run of sets written
 * apart, fit on the corpus and the other runs and judge that one. Pooled rates count every held-out
 * item once.
 */
import { fitModel, type Example } from '../../src/guard/injection/fit.ts';
import { judgeInjection, REFUSE_AT } from '../../src/guard/injection/verdict.ts';
import { toExample, writtenExamples, type CorpusItem, type WrittenSet } from './corpus.ts';

export interface StyleResult {
  readonly style: string;
  readonly label: 'attack' | 'legit';
  readonly items: number;
  /** Share refused: detection for an attack style, false positives for a legitimate one. */
  readonly refused: number;
  /** Each held-out item's score. */
  readonly scores: number[];
}

export interface HeldOutResult {
  readonly styles: StyleResult[];
  readonly detection: number;
  readonly falsePositives: number;
}

export function leaveOneStyleOut(items: readonly CorpusItem[], written: readonly WrittenSet[]): HeldOutResult {
  const examples = items.map(toExample);
  const always = written.flatMap(writtenExamples);
  const styleNames = [...new Set(items.map((item) => item.style))];
  const styles = styleNames.map((style): StyleResult => {
    const model = fitModel([...examples.filter((example) => example.style !== style), ...always]);
    const held = items.filter((item) => item.style === style);
    const scores = held.map((item) => judgeInjection(item.text, model).score);
    const refused = scores.filter((score) => score >= REFUSE_AT).length;
    return { style, label: held[0]?.label ?? 'legit', items: held.length, refused: refused / held.length, scores };
  });
  const pooled = (label: 'attack' | 'legit') => {
    const rows = styles.filter((row) => row.label === label);
    const total = rows.reduce((sum, row) => sum + row.items, 0);
    return rows.reduce((sum, row) => sum + row.refused * row.items, 0) / total;
  };
  return { styles, detection: pooled('attack'), falsePositives: pooled('legit') };
}

export function formatResult(result: HeldOutResult): string {
  const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    '| style | kind | items | refused (held out) |',
    '|---|---|---:|---:|',
    ...result.styles.map(
      (row) => `| ${row.style} | ${row.label === 'attack' ? 'attack' : 'legitimate'} | ${row.items} | ${percent(row.refused)} |`,
    ),
    '',
    `Pooled on held-out styles: detection ${percent(result.detection)}, false positives ${percent(result.falsePositives)}.`,
  ].join('\n');
}

/** Pooled held-out rates at other refusal thresholds, for choosing the uncertain band. */
export function sweep(result: HeldOutResult): string {
  const all = (label: 'attack' | 'legit') =>
    result.styles.filter((row) => row.label === label).flatMap((row) => row.scores);
  const attacks = all('attack');
  const legit = all('legit');
  return [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
    .map((t) => {
      const detection = attacks.filter((s) => s >= t).length / attacks.length;
      const falsePositives = legit.filter((s) => s >= t).length / legit.length;
      return `at ${t.toFixed(1)}: detection ${(100 * detection).toFixed(1)}%, false positives ${(100 * falsePositives).toFixed(1)}%`;
    })
    .join('\n');
}

export interface SetResult {
  readonly name: string;
  readonly attacks: number;
  readonly attacksRefused: number;
  readonly legit: number;
  readonly legitRefused: number;
}

/** Each set written apart judged by the model fitted on the corpus and the other sets. */
/**
 * The sets written apart, in order, cut into `blocks` runs of neighbouring sets (a round of writing
 * stays together): each run is judged by the model fitted on the corpus and the other runs.
 */
export function leaveBlocksOfSetsOut(items: readonly CorpusItem[], written: readonly WrittenSet[], blocks = 10): SetResult[] {
  const corpus: Example[] = items.map(toExample);
  const bySet = written.map(writtenExamples);
  const blockOf = (index: number) => Math.floor((index * blocks) / written.length);
  const results: SetResult[] = [];
  for (let block = 0; block < blocks; block++) {
    const model = fitModel([...corpus, ...bySet.filter((_, index) => blockOf(index) !== block).flat()]);
    const refused = (texts: string[]) => texts.filter((text) => judgeInjection(text, model).score >= REFUSE_AT).length;
    for (const set of written.filter((_, index) => blockOf(index) === block)) {
      results.push({ name: set.name, attacks: set.attack.length, attacksRefused: refused(set.attack), legit: set.legit.length, legitRefused: refused(set.legit) });
    }
  }
  return results;
}

/** Pooled over the sets of attacks and their look-alikes; a set of ordinary memories alone is its own row. */
export function pooledSets(results: readonly SetResult[]): { detection: number; falsePositives: number } {
  const paired = results.filter((row) => row.attacks > 0);
  const sum = (pick: (row: SetResult) => number) => paired.reduce((total, row) => total + pick(row), 0);
  return {
    detection: sum((row) => row.attacksRefused) / sum((row) => row.attacks),
    falsePositives: sum((row) => row.legitRefused) / sum((row) => row.legit),
  };
}

export function formatSets(results: readonly SetResult[]): string {
  const pooled = pooledSets(results);
  const percent = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    '| set written apart | attacks refused (held out) | look-alikes refused (held out) |',
    '|---|---:|---:|',
    ...results.map((row) => `| ${row.name} | ${row.attacksRefused}/${row.attacks} | ${row.legitRefused}/${row.legit} |`),
    '',
    `Pooled on held-out sets of attacks and look-alikes: detection ${percent(pooled.detection)}, ` +
      `false positives ${percent(pooled.falsePositives)}.`,
  ].join('\n');
}
