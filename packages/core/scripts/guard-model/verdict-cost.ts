/**
 * Prints the planted-instruction verdict's cost per record, p50 and p99: the corpus's records as
 * they are (typical memories), 2 KB records of mixed corpus text, and 20,000-character records
 * built to be slow (runs of one character, of spaces, of a word, an unclosed URL, an open quote).
 * CPU time per record (µs). Run with `node --import tsx scripts/guard-model/verdict-cost.ts`.
 */
import { judgeInjection } from '../../src/guard/injection/verdict.ts';
import { loadCorpus } from './corpus.ts';

function percentiles(texts: readonly string[], rounds: number): { p50: number; p99: number } {
  const times: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    for (const text of texts) {
      // CPU time of this process, not wall time: other processes on the machine do not count.
      const started = process.cpuUsage();
      judgeInjection(text);
      const used = process.cpuUsage(started);
      times.push(used.user + used.system);
    }
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99) };
}

const corpus = loadCorpus().map((item) => item.text);
const mixed: string[] = [];
for (let i = 0; i < 200; i += 1) {
  let record = '';
  for (let j = i; record.length < 2048; j += 37) record += `${corpus[j % corpus.length] ?? ''}\n`;
  mixed.push(record.slice(0, 2048));
}
const LIMIT = 20_000;
const worst = [
  'a'.repeat(LIMIT),
  ' '.repeat(LIMIT),
  'you '.repeat(LIMIT / 4),
  `https://${'a'.repeat(LIMIT - 8)}`,
  `"${'x'.repeat(LIMIT - 1)}`,
  `ignore ${'instructions '.repeat((LIMIT - 7) / 13)}`,
  `![${'a'.repeat(LIMIT - 2)}`,
  '<!--'.repeat(LIMIT / 4),
  'ж '.repeat(LIMIT / 2),
  '漢'.repeat(LIMIT),
];

percentiles(corpus, 1); // warm up
for (const [name, texts, rounds] of [
  ['corpus records as they are', corpus, 5],
  ['2 KB records of mixed corpus text', mixed, 5],
  ['20,000-character crafted records', worst, 3],
] as const) {
  const { p50, p99 } = percentiles(texts, rounds);
  console.log(`${name.padEnd(36)} p50 ${p50.toFixed(0).padStart(6)} µs   p99 ${p99.toFixed(0).padStart(6)} µs`);
}
