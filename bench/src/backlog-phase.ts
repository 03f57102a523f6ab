import type { BenchDatabase } from './bench-database.ts';
import { callTool } from './http-client.ts';
import { closedLoop, openLoop, type LoadResult } from './load.ts';
import { CLIENTS, POOL_SIZE, rememberArgs } from './remember-phase.ts';
import { startServer } from './server-process.ts';

const BACKLOG = 10_000;
/** A steady load well below saturation, so the latencies show what the worker takes from the ingress. */
export const BACKLOG_RATE = 20;
const WINDOW_SECONDS = 10;
const MAX_DRAIN_WINDOWS = 18;
const ON = { guard: true, idempotency: true, limits: true };

export interface BacklogFigures {
  idle: LoadResult;
  draining: LoadResult;
  /** Jobs waiting when the worker started, and when the measurement ended. */
  backlogAtStart: number;
  backlogAtEnd: number;
  drainSeconds: number;
}

async function pendingJobs(bench: BenchDatabase): Promise<number> {
  const [row] = await bench.admin<{ n: string }>(
    `select count(*) as n from pgboss.job where name = 'archivist' and state in ('created', 'retry', 'active')`,
  );
  return Number(row?.n ?? 0);
}

function merge(results: LoadResult[]): LoadResult {
  const latencies = results.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return {
    calls: latencies.length,
    errors: results.reduce((n, r) => n + r.errors, 0),
    firstError: results.find((r) => r.firstError !== undefined)?.firstError,
    seconds: results.reduce((n, r) => n + r.seconds, 0),
    latencies,
  };
}

async function waitForIdle(bench: BenchDatabase, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while ((await pendingJobs(bench)) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 500));
}

/**
 * remember at a steady BACKLOG_RATE/s with the archivist worker in the same process (as `pnpm start` runs
 * it): first with no backlog, then while a backlog of 10,000 archivist jobs drains.
 */
export async function measureBacklog(bench: BenchDatabase, keys: string[]): Promise<BacklogFigures> {
  const remember = (mcpUrl: string) => async (client: number) => {
    const answer = await callTool(mcpUrl, keys[client % keys.length] ?? '', 'remember', rememberArgs());
    return answer.ok ? undefined : answer.text;
  };

  // The archivist jobs the earlier measures left (tens of thousands, more than a worker drains in
  // minutes) are dropped: "idle" is measured with none, and the backlog is this phase's own.
  await bench.admin(`delete from pgboss.job where name = 'archivist' and state in ('created', 'retry')`);
  let server = await startServer({ mode: 'runtime', url: bench.url, poolSize: POOL_SIZE, worker: true, protections: ON });
  await waitForIdle(bench, 120_000);
  // Warm the process up first, as the draining run is warmed up by the burst before it.
  await openLoop(BACKLOG_RATE, 5, remember(`${server.url}/mcp`));
  await waitForIdle(bench, 120_000);
  const idle = await openLoop(BACKLOG_RATE, WINDOW_SECONDS * 2, remember(`${server.url}/mcp`));
  await waitForIdle(bench, 120_000);
  await server.stop();

  // The backlog: a burst of writes while no worker runs.
  server = await startServer({ mode: 'runtime', url: bench.url, poolSize: POOL_SIZE, worker: false, protections: ON });
  const burst = remember(`${server.url}/mcp`);
  for (let pending = await pendingJobs(bench); pending < BACKLOG; pending = await pendingJobs(bench)) {
    let made = 0;
    const needed = BACKLOG - pending;
    await closedLoop(CLIENTS, 2, async (client) => (made++ < needed ? burst(client) : undefined));
  }
  await server.stop();

  const backlogAtStart = await pendingJobs(bench);
  server = await startServer({ mode: 'runtime', url: bench.url, poolSize: POOL_SIZE, worker: true, protections: ON });
  await openLoop(BACKLOG_RATE, 1, remember(`${server.url}/mcp`));
  const started = Date.now();
  const windows: LoadResult[] = [];
  let backlogAtEnd = backlogAtStart;
  try {
    for (let w = 0; w < MAX_DRAIN_WINDOWS && backlogAtEnd > 0; w++) {
      windows.push(await openLoop(BACKLOG_RATE, WINDOW_SECONDS, remember(`${server.url}/mcp`)));
      backlogAtEnd = await pendingJobs(bench);
    }
  } finally {
    await server.stop();
  }
  return { idle, draining: merge(windows), backlogAtStart, backlogAtEnd, drainSeconds: (Date.now() - started) / 1000 };
}
