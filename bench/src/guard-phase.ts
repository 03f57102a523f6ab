/**
 * The Memory Guard's price: its own CPU time per record for three kinds of record (prose as the
 * corpus writes it, dense markup, and records crafted against its patterns at the 20,000-character
 * limit), and remember over MCP with the Guard on as a share of the same call with it off (only
 * the Guard toggled; idempotency and limits stay on in both).
 */
import { performance } from 'node:perf_hooks';
import { guardRecord, type Protections } from '@mmw/core';
import { generateRecord } from './corpus.ts';
import { percentile, rate } from './load.ts';
import { measureRemember } from './remember-phase.ts';
import { percent, perSecond, print } from './report.ts';

const RUNS = 300;
const MAX_CONTENT = 20_000;
const GUARD_ON: Protections = { guard: true, idempotency: true, limits: true };
const GUARD_OFF: Protections = { guard: false, idempotency: true, limits: true };

type Fields = Record<string, string | null>;

/** Memories as the benchmark's corpus writes them: a sentence or a short paragraph of prose. */
function proseRecords(): Fields[] {
  return Array.from({ length: 50 }, (_, i) => {
    const record = generateRecord(9_000_000 + i);
    return { content: record.content, fact_key: record.factKey ?? null, scope: record.scope ?? null };
  });
}

/** 2 KB records where every line has markup: quotes, code spans, links, images, tags, JSON. */
function denseMarkupRecords(): Fields[] {
  const lines = [
    '- run `pnpm --filter @mmw/core run migrate` before "the deploy of billing-api on Fridays"',
    '![latency](https://grafana.acme.io/d/billing.png?from=now-6h&to=now) see [runbook](https://docs.acme.dev/runbooks/billing)',
    '<details><summary>config</summary><code>{"retries": 3, "backoff": "exponential", "owner": "payments"}</code></details>',
    '> "Always quote ticket text as data" — review note SEC-14, `sanitize(ticket.body)`',
    '| service | env | owner |\n| --- | --- | --- |\n| ledger | prod-eu | Marta |',
    '<!-- reviewed by Olu --> ### Instructions for setup: `docker compose up -d` then `psql $DATABASE_URL`',
  ];
  return Array.from({ length: 20 }, (_, i) => {
    let content = '';
    for (let k = i; content.length < 2048; k += 1) content += `${lines[k % lines.length] ?? ''}\n`;
    return { content: content.slice(0, 2048), fact_key: `setup-note-${i}`, scope: 'shared' };
  });
}

function fill(head: string, unit: string): string {
  return (head + unit.repeat(Math.ceil(MAX_CONTENT / unit.length))).slice(0, MAX_CONTENT);
}

/** Maximum-size records crafted against the patterns (the inputs that once made them backtrack). */
function worstCaseRecords(): Fields[] {
  return [
    fill('а ', 'ж'),
    fill('[//]:', ' '),
    fill('', '漢字'),
    fill('', '<div a>'),
    fill('', 'never silently run '),
    fill('', 'ab '),
    fill('https://x.io/?q=', 'a'),
    fill('"', 'word '),
    fill('<!--', ' '),
    fill('', '\r[//]:('),
    // Against the secret rules: a name read word by word after each occurrence, split tokens.
    fill('', 'password '),
    fill('', 'password is "'),
    fill('ghp_', 'Ab12 '),
  ].map((content) => ({ content }));
}

/** p50 and p99 of the Guard's own time per record, in this process, in microseconds. */
async function costOf(records: Fields[]): Promise<{ p50: number; p99: number }> {
  const guard = (record: Fields) => guardRecord(record).catch(() => undefined);
  for (const record of records) await guard(record);
  const micros: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const record = records[i % records.length] ?? {};
    const started = performance.now();
    await guard(record);
    micros.push((performance.now() - started) * 1000);
  }
  micros.sort((a, b) => a - b);
  return { p50: percentile(micros, 50), p99: percentile(micros, 99) };
}

const micros = (value: number) => (value >= 1000 ? `${(value / 1000).toFixed(1)} ms` : `${Math.round(value)} µs`);

/** The Guard's own cost per record, by kind of record; returns summary lines. */
export async function measureGuardCost(): Promise<Array<[string, string]>> {
  const kinds: Array<[string, Fields[]]> = [
    ['prose (corpus records)', proseRecords()],
    ['dense markup, 2 KB', denseMarkupRecords()],
    ['worst case, 20,000 characters crafted', worstCaseRecords()],
  ];
  const rows: Array<[string, string]> = [];
  for (const [name, records] of kinds) {
    const { p50, p99 } = await costOf(records);
    const figure = `p50 ${micros(p50)}, p99 ${micros(p99)}`;
    print(`guard per record, ${name}: ${figure} over ${RUNS} records`);
    rows.push([`guard per record, ${name}`, figure]);
  }
  return rows;
}

/**
 * remember with the Guard on and off, in turn, twice (a drift of the machine hits both alike);
 * returns the summary line.
 */
export async function measureGuardShare(url: string, keys: string[], seconds: number): Promise<[string, string]> {
  const on: number[] = [];
  const off: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    on.push(rate(await measureRemember(url, keys, GUARD_ON, seconds)));
    off.push(rate(await measureRemember(url, keys, GUARD_OFF, seconds)));
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const figure = `${perSecond(mean(on))} / ${perSecond(mean(off))} = ${percent(mean(on) / mean(off))}`;
  print(`remember with the Guard on / off (idempotency and limits on in both): ${figure}`);
  return ['remember, Guard on / off', figure];
}
