import { provisionKey } from '@mmw/core';
import type { Db } from '@mmw/db';
import { COMMON_QUERIES, EXPANSION_QUERIES } from './corpus.ts';
import { callTool } from './http-client.ts';
import { closedLoop, percentile, rate, type LoadResult } from './load.ts';
import { ms, percent, perSecond, print } from './report.ts';
import { ALL_ON, POOL_SIZE, REMEMBER_WORKSPACE, measureFloor, rememberArgs } from './remember-phase.ts';
import { startServer } from './server-process.ts';

/** The load a SaaS sees: many accounts, each writing now and then. */
export const ACCOUNTS = 1_000;
const WARM_UP_SECONDS = 10;
const SEARCH_SHARE = 0.7;

/** Questions as people ask them: common and abstract words together. */
const QUESTIONS = [
  ...COMMON_QUERIES.map((query) => `what do we know about ${query}?`),
  ...EXPANSION_QUERIES.map((query) => `anything on ${query}?`),
];

/** One key for each of ACCOUNTS accounts (each its own organization and project), ten at a time. */
export async function setUpAccounts(db: Db): Promise<string[]> {
  const keys: string[] = [];
  for (let first = 0; first < ACCOUNTS; first += 10) {
    const batch = Array.from({ length: Math.min(10, ACCOUNTS - first) }, (_, i) =>
      provisionKey(db, { account: `tenant-${first + i}`, project: 'main' }),
    );
    keys.push(...(await Promise.all(batch)).map((provisioned) => provisioned.key));
  }
  return keys;
}

export interface MixedResult {
  search: LoadResult;
  remember: LoadResult;
}

let call = 0;
const pick = (keys: string[]) => keys[Math.floor(Math.random() * keys.length)] ?? '';

async function remember(mcpUrl: string, keys: string[]): Promise<string | undefined> {
  const answer = await callTool(mcpUrl, pick(keys), 'remember', rememberArgs(), {
    'x-idempotency-key': `mt-${process.pid}-${call++}`,
  });
  return answer.ok ? undefined : answer.text;
}

/** remember from `clients` clients, each call with the key of a random account of the thousand. */
export async function measureMultiTenantRemember(
  url: string,
  keys: string[],
  clients: number,
  seconds: number,
): Promise<LoadResult> {
  const server = await startServer({
    mode: 'runtime',
    url,
    poolSize: POOL_SIZE,
    worker: false,
    protections: ALL_ON,
  });
  const mcpUrl = `${server.url}/mcp`;
  try {
    await closedLoop(clients, WARM_UP_SECONDS, () => remember(mcpUrl, keys));
    return await closedLoop(clients, seconds, () => remember(mcpUrl, keys));
  } finally {
    await server.stop();
  }
}

/** 70% search with a natural-language question, 30% remember, over the thousand accounts. */
export async function measureMixed(
  url: string,
  keys: string[],
  clients: number,
  seconds: number,
): Promise<MixedResult> {
  const server = await startServer({
    mode: 'runtime',
    url,
    poolSize: POOL_SIZE,
    worker: false,
    protections: ALL_ON,
  });
  const mcpUrl = `${server.url}/mcp`;
  const searchOne = async () => {
    const query = QUESTIONS[Math.floor(Math.random() * QUESTIONS.length)] ?? 'deploy';
    const answer = await callTool(mcpUrl, pick(keys), 'search', { query, workspace: REMEMBER_WORKSPACE });
    // An account that has not written yet has no such workspace: an answer all the same.
    return answer.ok || answer.text.includes('is not active') ? undefined : answer.text;
  };
  // The clients split 70/30 into two closed loops, so each kind is timed on its own.
  const searchers = Math.max(1, Math.round(clients * SEARCH_SHARE));
  const writers = Math.max(1, clients - searchers);
  try {
    await Promise.all([
      closedLoop(searchers, WARM_UP_SECONDS, searchOne),
      closedLoop(writers, WARM_UP_SECONDS, () => remember(mcpUrl, keys)),
    ]);
    const [search, written] = await Promise.all([
      closedLoop(searchers, seconds, searchOne),
      closedLoop(writers, seconds, () => remember(mcpUrl, keys)),
    ]);
    return { search, remember: written };
  } finally {
    await server.stop();
  }
}

const p = (result: LoadResult, q: number) => ms(percentile(result.latencies, q));
const latencies = (result: LoadResult) =>
  `p50 ${p(result, 50)}, p95 ${p(result, 95)}, p99 ${p(result, 99)}${result.errors > 0 ? `, ${result.errors} errors (first: ${result.firstError ?? ''})` : ''}`;

/**
 * The multi-tenant figures: remember over a thousand accounts at 8 and 64 clients, each beside the
 * bare-INSERT route measured in turn (twice, alternated), and the mixed load.
 */
export async function printMultiTenant(
  url: string,
  db: Db,
  seconds: number,
  note: (label: string, value: string) => void,
): Promise<void> {
  print(`\n## remember over ${ACCOUNTS.toLocaleString('en-US')} accounts (keys spread over them)`);
  const keys = await setUpAccounts(db);
  for (const clients of [8, 64]) {
    const ratios: number[] = [];
    for (let round = 0; round < 2; round++) {
      const floor = await measureFloor(url, clients, seconds);
      const written = await measureMultiTenantRemember(url, keys, clients, seconds);
      ratios.push(rate(written) / rate(floor));
      print(
        `${clients} clients, round ${round + 1}: route ${perSecond(rate(floor))}; remember ${perSecond(rate(written))} = ${percent(rate(written) / rate(floor))} of the route; ${latencies(written)}`,
      );
    }
    note(
      `remember, ${ACCOUNTS} accounts, ${clients} clients (share of the route in turn)`,
      ratios.map(percent).join(', '),
    );
  }
  const mixed = await measureMixed(url, keys, 8, seconds);
  print(
    `mixed load, 8 clients (70% search, 30% remember): search ${perSecond(rate(mixed.search))}, ${latencies(mixed.search)}`,
  );
  print(`mixed load, 8 clients: remember ${perSecond(rate(mixed.remember))}, ${latencies(mixed.remember)}`);
  note('mixed load: search p50 / p95 / p99', latencies(mixed.search));
  note('mixed load: remember p50 / p95 / p99', latencies(mixed.remember));
}
