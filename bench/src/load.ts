import { performance } from 'node:perf_hooks';

export interface LoadResult {
  calls: number;
  errors: number;
  firstError: string | undefined;
  seconds: number;
  /** Milliseconds per call, sorted ascending. */
  latencies: number[];
}

/** A call reports an error text, or undefined when it succeeded. */
export type Call = (client: number, i: number) => Promise<string | undefined>;

function collect(started: number, latencies: number[], errors: string[]): LoadResult {
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    errors: errors.length,
    firstError: errors[0],
    seconds: (performance.now() - started) / 1000,
    latencies,
  };
}

async function timed(call: Call, client: number, i: number, latencies: number[], errors: string[]) {
  const start = performance.now();
  let error: string | undefined;
  try {
    error = await call(client, i);
  } catch (thrown) {
    error = thrown instanceof Error ? thrown.message : String(thrown);
  }
  latencies.push(performance.now() - start);
  if (error !== undefined) errors.push(error);
}

/** `clients` loops, each making its next call as soon as the last one answered, for `seconds`. */
export async function closedLoop(clients: number, seconds: number, call: Call): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors: string[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < until) await timed(call, client, next++, latencies, errors);
    }),
  );
  return collect(started, latencies, errors);
}

/** Calls started at a fixed rate whatever the answers do, so queueing shows in the latencies. */
export async function openLoop(ratePerSecond: number, seconds: number, call: Call): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors: string[] = [];
  const started = performance.now();
  const total = Math.round(ratePerSecond * seconds);
  const running: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / ratePerSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    running.push(timed(call, i % 64, i, latencies, errors));
  }
  await Promise.all(running);
  return collect(started, latencies, errors);
}

/** The same calls one after another: latency without queueing. Stops early once `budgetMs` is spent. */
export async function sequential(count: number, call: Call, budgetMs = Number.POSITIVE_INFINITY): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors: string[] = [];
  const started = performance.now();
  for (let i = 0; i < count && performance.now() - started < budgetMs; i++) await timed(call, 0, i, latencies, errors);
  return collect(started, latencies, errors);
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[at] ?? Number.NaN;
}

export const rate = (result: LoadResult) => result.calls / result.seconds;
