import type { Db } from '@mmw/db';
import { COMMON_QUERIES, QUESTION_QUERIES } from './corpus.ts';
import { callTool } from './http-client.ts';
import { closedLoop, sequential, type LoadResult } from './load.ts';
import { seededRandom } from './random.ts';
import { POOL_SIZE } from './remember-phase.ts';
import { startServer } from './server-process.ts';
import { straightforwardSearch } from './straightforward-search.ts';
import { searchRecords, type Caller, type Protections } from '@mmw/core';

const SEARCHES = 200;
/** Concurrent clients search is also measured at, and for how long. */
export const SEARCH_CLIENTS = [4, 8] as const;
const CONCURRENT_SECONDS = 8;
const WARM_UP_SEARCHES = 100;
/** The straightforward query takes up to a second at 1M records: it gets a time budget instead. */
const BASELINE_BUDGET_MS = 30_000;
const ON: Protections = { guard: true, idempotency: true, limits: true };

export interface SearchFigures {
  kind: 'rare' | 'common' | 'question';
  mcp: LoadResult;
  /** The same queries through MCP from 4 and 8 clients at once. */
  concurrent: Array<{ clients: number; result: LoadResult }>;
  /** The same searches in this process, core's searchRecords on the pool: search's own work. */
  core: LoadResult;
  baseline: LoadResult;
  /** Mean number of records a search returned. */
  meanResults: number;
}

/** Queries of one or two words that occur in a handful of records of the searched workspace. */
export function rareQueries(rareWords: readonly string[][], count = 40): string[] {
  const random = seededRandom(4242);
  const candidates = rareWords.filter((words) => words.length > 0);
  const queries: string[] = [];
  for (let i = 0; i < count && candidates.length > 0; i++) {
    const words = candidates[Math.floor(random() * candidates.length)] ?? [];
    queries.push(words.slice(0, 1 + Math.floor(random() * 2)).join(' '));
  }
  return queries;
}

async function baselineRun(
  db: Db,
  accountId: string,
  workspaceId: string,
  queries: readonly string[],
): Promise<LoadResult> {
  const call = async (_: number, i: number) => {
    await straightforwardSearch(db, accountId, workspaceId, queries[i % queries.length] ?? '');
    return undefined;
  };
  return sequential(SEARCHES, call, BASELINE_BUDGET_MS);
}

/** search through MCP, one call after another, and the straightforward SQL for the same queries. */
export async function measureSearch(
  url: string,
  key: string,
  db: Db,
  tenant: { accountId: string; searchedWorkspaceId: string; caller: Caller },
  rare: string[],
): Promise<SearchFigures[]> {
  const server = await startServer({
    mode: 'runtime',
    url,
    poolSize: POOL_SIZE,
    worker: false,
    protections: ON,
  });
  const mcpUrl = `${server.url}/mcp`;
  const figures: SearchFigures[] = [];
  try {
    const kinds = [
      ['rare', rare],
      ['common', COMMON_QUERIES],
      ['question', QUESTION_QUERIES],
    ] as const;
    for (const [kind, queries] of kinds) {
      let returned = 0;
      const call = async (_: number, i: number) => {
        const answer = await callTool(mcpUrl, key, 'search', { query: queries[i % queries.length] ?? '' });
        const result = answer.structured?.result;
        if (Array.isArray(result)) returned += result.length;
        return answer.ok ? undefined : answer.text;
      };
      // Warmed up as a server that has been running is: the first calls of a fresh process compile.
      await sequential(WARM_UP_SEARCHES, call);
      returned = 0;
      const mcp = await sequential(SEARCHES, call);
      const meanResults = returned / SEARCHES;
      const concurrent = [];
      for (const clients of SEARCH_CLIENTS) {
        concurrent.push({ clients, result: await closedLoop(clients, CONCURRENT_SECONDS, call) });
      }
      const core = await sequential(SEARCHES, async (_, i) => {
        await searchRecords(db, tenant.caller, { query: queries[i % queries.length] ?? '' });
        return undefined;
      });
      const baseline = await baselineRun(db, tenant.accountId, tenant.searchedWorkspaceId, queries);
      figures.push({ kind, mcp, concurrent, core, baseline, meanResults });
    }
  } finally {
    await server.stop();
  }
  return figures;
}
