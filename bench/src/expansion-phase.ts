import { performance } from 'node:perf_hooks';
import { EXPANSION_QUERIES } from './corpus.ts';
import { callTool } from './http-client.ts';
import { sequential, type LoadResult } from './load.ts';
import { POOL_SIZE } from './remember-phase.ts';
import { startServer } from './server-process.ts';

const ROUNDS = 25;

export interface ExpansionFigures {
  withExpansion: LoadResult;
  without: LoadResult;
  /** The expanding searches, query by query. */
  byQuery: Array<[string, LoadResult]>;
  /** Share of the searches whose answer named added terms. */
  expandedShare: number;
}

async function run(url: string, key: string, mode: 'runtime' | 'no-expansion') {
  const server =
    mode === 'runtime'
      ? await startServer({ mode, url, poolSize: POOL_SIZE, worker: false, protections: { guard: true, idempotency: true, limits: true } })
      : await startServer({ mode, url, poolSize: POOL_SIZE });
  let expanded = 0;
  const perQuery = new Map<string, number[]>();
  const call = async (_: number, i: number) => {
    const query = EXPANSION_QUERIES[i % EXPANSION_QUERIES.length] ?? '';
    const started = performance.now();
    const answer = await callTool(`${server.url}/mcp`, key, 'search', { query });
    perQuery.set(query, [...(perQuery.get(query) ?? []), performance.now() - started]);
    if (Array.isArray(answer.structured?.expanded_terms)) expanded++;
    return answer.ok ? undefined : answer.text;
  };
  try {
    await sequential(EXPANSION_QUERIES.length, call);
    expanded = 0;
    perQuery.clear();
    const result = await sequential(EXPANSION_QUERIES.length * ROUNDS, call);
    const byQuery = [...perQuery].map(([query, latencies]): [string, LoadResult] => [
      query,
      { calls: latencies.length, errors: 0, firstError: undefined, seconds: 0, latencies: latencies.sort((a, b) => a - b) },
    ]);
    return { result, expandedShare: expanded / result.calls, byQuery };
  } finally {
    await server.stop();
  }
}

/**
 * Searches that need expansion (nothing matches, or the query is abstract), on the ingress as it
 * runs and on the same ingress whose search never expands: the difference is what expansion adds.
 */
export async function measureExpansion(url: string, key: string): Promise<ExpansionFigures> {
  const withExpansion = await run(url, key, 'runtime');
  const without = await run(url, key, 'no-expansion');
  return {
    withExpansion: withExpansion.result,
    without: without.result,
    expandedShare: withExpansion.expandedShare,
    byQuery: withExpansion.byQuery,
  };
}
