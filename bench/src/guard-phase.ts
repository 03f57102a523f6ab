import { performance } from 'node:perf_hooks';
import { guardRecord } from '@mmw/core';
import { generateRecord } from './corpus.ts';
import { percentile } from './load.ts';
import { print } from './report.ts';

const RECORD_BYTES = 2048;
const RUNS = 500;

/** A 2 KB record of the corpus's kind: several notes joined, with a fact_key, a source and a scope. */
function twoKilobyteRecord(seed: number): Record<string, string | null> {
  let content = '';
  for (let i = 0; content.length < RECORD_BYTES; i++) content += `${generateRecord(9_000_000 + seed * 100 + i).content} `;
  return {
    content: content.slice(0, RECORD_BYTES),
    fact_key: 'billing-retry-policy',
    source_id: 'docs/billing/retries.md',
    source_hash: 'sha256:9f2c4e1a',
    source_revision: 'a1b2c3d',
    scope: 'shared',
  };
}

/** The Memory Guard's own cost per record, in this process, for 2 KB records. */
export async function measureGuard(): Promise<string> {
  const records = Array.from({ length: 20 }, (_, i) => twoKilobyteRecord(i));
  for (const record of records) await guardRecord(record);
  const micros: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const record = records[i % records.length] ?? {};
    const start = performance.now();
    await guardRecord(record);
    micros.push((performance.now() - start) * 1000);
  }
  micros.sort((a, b) => a - b);
  const mean = micros.reduce((a, b) => a + b, 0) / micros.length;
  const figure = `mean ${Math.round(mean)} µs, p50 ${Math.round(percentile(micros, 50))} µs, p95 ${Math.round(percentile(micros, 95))} µs`;
  print(`guard, 2 KB record: ${figure} over ${RUNS} records`);
  return figure;
}
