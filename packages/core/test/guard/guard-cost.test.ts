import { describe, expect, it } from 'vitest';
import { guardRecord } from '../../src/guard/index.ts';
import { loadCorpus } from '../../scripts/guard-model/corpus.ts';

/**
 * Prints the guard's mean cost per 2 KB record (never asserted: timing depends on the machine and
 * on what else runs). What it asserts is that ordinary 2 KB records pass the guard unchanged.
 * Two kinds of record: plain prose, and a dense mix of the legitimate memories of the guard's
 * corpus (commands, markup, JSON, quoted prompts in every line), close to the worst case for it.
 */
const PROSE =
  'We decided to keep the billing service on PostgreSQL because the team knows it well and the transactional ' +
  'guarantees matter for invoices. The migration to the new schema happens in three steps: first we add the ' +
  'nullable columns, then we backfill them in batches overnight, and finally we add the constraints once the ' +
  'backfill is verified. Alice owns the backfill job and Bob reviews the migration files before they are merged. ';

function buildRecords(): { prose: string[]; dense: string[] } {
  const benign = loadCorpus()
    .filter((item) => item.label === 'legit' && item.lang === 'en')
    .map((item) => item.text);
  const prose: string[] = [];
  const dense: string[] = [];
  for (let i = 0; i < 40; i += 1) {
    prose.push(`Note ${i}. ${PROSE.repeat(6)}`.slice(0, 2048));
    let record = '';
    for (let j = i * 7; record.length < 2048; j += 13) record += `${benign[j % benign.length] ?? ''}\n`;
    dense.push(record.slice(0, 2048));
  }
  return { prose, dense };
}

/** Mean wall time per record for each of several rounds; the fastest round is the least disturbed. */
async function meanCost(
  records: readonly string[],
): Promise<{ fastest: number; median: number; changed: number }> {
  for (let round = 0; round < 3; round += 1) for (const content of records) await guardRecord({ content });
  let changed = 0;
  const rounds: number[] = [];
  for (let round = 0; round < 7; round += 1) {
    const started = process.hrtime.bigint();
    for (const content of records) {
      const result = await guardRecord({ content });
      if (result.fields.content !== content) changed += 1;
    }
    rounds.push(Number(process.hrtime.bigint() - started) / 1000 / records.length);
  }
  rounds.sort((a, b) => a - b);
  return { fastest: rounds[0] ?? 0, median: rounds[3] ?? 0, changed };
}

describe('guard cost', () => {
  it('accepts 2 KB benign records unchanged and prints the mean cost per record', async () => {
    const { prose, dense } = buildRecords();
    const proseCost = await meanCost(prose);
    const denseCost = await meanCost(dense);
    console.log(
      [
        'memory guard, mean cost per 2 KB record (fastest of 7 rounds; median in brackets):',
        `  plain prose         ${proseCost.fastest.toFixed(0)} µs (${proseCost.median.toFixed(0)} µs)`,
        `  dense benign corpus ${denseCost.fastest.toFixed(0)} µs (${denseCost.median.toFixed(0)} µs)`,
      ].join('\n'),
    );
    expect(proseCost.changed).toBe(0);
    expect(denseCost.changed).toBe(0);
  });
});
