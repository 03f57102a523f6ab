import { percentile, rate, type LoadResult } from './load.ts';

/** Prints each figure as it is measured; the benchmark asserts nothing. */
export const print = (line: string) => process.stdout.write(`${line}\n`);

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : 'n/a');
export const perSecond = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
export const times = (value: number) => (Number.isFinite(value) ? `${value.toFixed(value >= 10 ? 0 : 1)}×` : 'n/a');
export const percent = (value: number) => `${Math.round(value * 100)}%`;

export function latencySummary(result: LoadResult): string {
  const errors = result.errors > 0 ? `, ${result.errors} errors (first: ${result.firstError ?? ''})` : '';
  return `p50 ${ms(percentile(result.latencies, 50))}, p95 ${ms(percentile(result.latencies, 95))} over ${result.calls} calls${errors}`;
}

export function throughputSummary(result: LoadResult): string {
  const errors = result.errors > 0 ? `, ${result.errors} errors (first: ${result.firstError ?? ''})` : '';
  return `${perSecond(rate(result))} (${result.calls} calls in ${result.seconds.toFixed(1)} s, p95 ${ms(percentile(result.latencies, 95))}${errors})`;
}
