import { openPostgres } from '@mmw/db';
import { createBenchDatabase } from '../bench-database.ts';
import { print } from '../report.ts';
import { measureRecall, readSet, type RecallResult, type Scores } from './recall-phase.ts';

const fixed = (value: number) => value.toFixed(2);

function rows(label: string, table: Map<string, Scores>): string[] {
  return [...table].map(
    ([kind, s]) =>
      `| ${label} | ${kind} | ${s.questions} | ${fixed(s.at5 / s.questions)} | ${fixed(s.at10 / s.questions)} | ${fixed(s.mrr / s.questions)} |`,
  );
}

/**
 * Recall on the labelled sets (bench/data), in a database of its own: per kind of question,
 * recall@5, recall@10 and MRR of search (the spec's order), beside plain PostgreSQL full-text
 * search on the same questions, and search's latency. BENCH_RECALL_HALF=tuning reports the half
 * used for tuning instead of the held-out one; BENCH_RECALL_MISSES=1 lists the questions whose
 * answer is not in the top 5, with the answer and what came first (to read on the tuning half).
 */
export async function printRecall(serverUrl: string): Promise<RecallResult[]> {
  const half = process.env.BENCH_RECALL_HALF === 'tuning' ? 'tuning' : 'held-out';
  const bench = await createBenchDatabase(serverUrl, 'mmw_bench_i22_recall');
  const database = openPostgres(bench.url, { poolSize: 4 });
  const results: RecallResult[] = [];
  try {
    for (const name of ['team', 'team-apart', 'conversation']) {
      const set = readSet(name);
      const result = await measureRecall(bench, database.db, set, half);
      results.push(result);
      print(`\n### Recall: ${name} set, ${half} half (${set.records.length} records)`);
      print('| search | kind | questions | recall@5 | recall@10 | MRR |\n| --- | --- | --- | --- | --- | --- |');
      for (const line of [...rows('MMW', result.mmw), ...rows('PostgreSQL OR + ts_rank_cd', result.baseline)]) print(line);
      print(`search latency, one client: p50 ${result.latencyMs.p50.toFixed(1)} ms, p95 ${result.latencyMs.p95.toFixed(1)} ms`);
      if (process.env.BENCH_RECALL_MISSES === '1')
        for (const miss of result.misses)
          print(`\nmissed (${miss.kind}): ${miss.text}\n  answer: ${miss.answer}\n  found: ${miss.found.join('\n         ')}`);
    }
  } finally {
    await database.close();
    await bench.drop();
  }
  return results;
}
