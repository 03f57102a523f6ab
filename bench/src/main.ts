/**
 * `pnpm bench`: MMW's figures through the real MCP endpoint, against a database of its own created
 * beside DATABASE_URL and dropped at the end. It prints figures and asserts nothing.
 *
 * BENCH_STAGES (default 10000,100000,1000000) sets the record counts search is measured at; the
 * remember, expansion and backlog figures "at scale" are taken at the last stage. BENCH_ONLY=recall
 * prints only the recall table of the labelled sets (as `pnpm bench:recall`). BENCH_ONLY=guard prints
 * only the Memory Guard's figures: its cost per record and remember with it on as a share of off.
 * BENCH_ONLY=search loads the stages and prints only search's figures at each. BENCH_ONLY=stale prints
 * search on a table grown 100× since its last ANALYZE.
 */
import type { Caller } from '@mmw/core';
import { openPostgres } from '@mmw/db';
import { BACKLOG_RATE, measureBacklog } from './backlog-phase.ts';
import { createBenchDatabase } from './bench-database.ts';
import { BulkLoader } from './bulk-load.ts';
import { measureExpansion } from './expansion-phase.ts';
import { measureGuardCost, measureGuardShare } from './guard-phase.ts';
import { percentile, rate } from './load.ts';
import {
  ALL_ON,
  CLIENTS,
  POOL_SIZE,
  measureFloor,
  measureProtections,
  measureRemember,
  measureRememberWindows,
} from './remember-phase.ts';
import type { CpuSplit } from './cpu-time.ts';
import { latencySummary, ms, percent, perSecond, print, throughputSummary, times } from './report.ts';
import { measureMcpLayer } from './mcp-layer-phase.ts';
import { printMultiTenant } from './multi-tenant-phase.ts';
import { measureSearch, rareQueries } from './search-phase.ts';
import { setUpTenant, type BenchTenant } from './setup.ts';
import { measureStaleStatistics } from './stale-statistics-phase.ts';
import { printRecall } from './recall/recall-report.ts';

/** The MCP layer alone (no database): also printed with the remember figures of a full run. */
async function printMcpLayer(): Promise<string> {
  const { mcp, bare } = await measureMcpLayer();
  const errors = mcp.firstError === undefined ? '' : ` (first error: ${mcp.firstError})`;
  const figure = `${perSecond(mcp.perSecond)} at ${mcp.cpuMs.toFixed(2)} ms of CPU per call; a bare fastify route ${perSecond(bare.perSecond)} at ${bare.cpuMs.toFixed(2)} ms`;
  print(
    `MCP layer alone (a service that answers at once; server and client in one process): ${figure}${errors}`,
  );
  return figure;
}

if (process.env.BENCH_ONLY === 'recall') {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required');
  await printRecall(process.env.DATABASE_URL);
  process.exit(0);
}

if (process.env.BENCH_ONLY === 'mcp-layer') {
  await printMcpLayer();
  process.exit(0);
}

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  process.stderr.write('DATABASE_URL is required: the benchmark creates its own database beside it.\n');
  process.exit(1);
}
const stages = (process.env.BENCH_STAGES ?? '10000,100000,1000000').split(',').map(Number);
const REMEMBER_SECONDS = 8;
const SUSTAINED_WINDOWS = 3;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const count = (n: number) => n.toLocaleString('en-US');
const summary: Array<[string, string]> = [];
const note = (label: string, value: string) => summary.push([label, value]);
const cpuSummary = (cpu: CpuSplit) =>
  `CPU per call: ingress ${cpu.server.toFixed(2)} ms, PostgreSQL ${cpu.postgres.toFixed(2)} ms, load ${cpu.load.toFixed(2)} ms`;
const meanCpu = (results: Array<{ cpu: CpuSplit }>): CpuSplit => ({
  server: mean(results.map((r) => r.cpu.server)),
  postgres: mean(results.map((r) => r.cpu.postgres)),
  load: mean(results.map((r) => r.cpu.load)),
});
const printSummary = () => {
  print('\n## Summary');
  print('| figure | measured |\n| --- | --- |');
  for (const [label, value] of summary) print(`| ${label} | ${value} |`);
};

/** Search on a table grown 100× since its last ANALYZE: what BENCH_ONLY=stale runs alone. */
async function staleStatistics(): Promise<void> {
  const figures = await measureStaleStatistics(bench, database.db);
  print(
    `\n## search on a table grown from 500 to ${count(figures.records)} records (${count(figures.relations)} relations) with no ANALYZE since`,
  );
  for (const { kind, stale, analysed } of figures.kinds) {
    print(`${kind} search in process, never analysed: ${latencySummary(stale)}; after ANALYZE: ${latencySummary(analysed)}`);
    note(
      `search ${kind} words on a grown table never analysed / after ANALYZE: p50 / p95`,
      `${ms(percentile(stale.latencies, 50))} / ${ms(percentile(stale.latencies, 95))}; ${ms(percentile(analysed.latencies, 50))} / ${ms(percentile(analysed.latencies, 95))}`,
    );
  }
}

/** Loads the corpus stage by stage and measures search at each: what BENCH_ONLY=search runs alone. */
async function searchStages(tenant: BenchTenant, searchKey: string, searchCaller: Caller): Promise<number> {
  const loader = new BulkLoader(bench.url, { ...tenant });
  let loaded = 0;
  for (const stage of stages) {
    const started = Date.now();
    await loader.load(loaded, stage);
    loaded = stage;
    print(
      `\n## search at ${count(stage)} records (searched workspace: ${count(loader.searchedRareWords.length)}; loaded in ${Math.round((Date.now() - started) / 1000)} s)`,
    );
    const figures = await measureSearch(
      bench.url,
      searchKey,
      database.db,
      {
        accountId: tenant.accountId,
        searchedWorkspaceId: tenant.workspaceIds[0] ?? '',
        caller: searchCaller,
      },
      rareQueries(loader.searchedRareWords),
    );
    for (const figure of figures) {
      const ratio = percentile(figure.baseline.latencies, 95) / percentile(figure.mcp.latencies, 95);
      print(
        `${figure.kind}-word search via MCP: ${latencySummary(figure.mcp)}; ${figure.meanResults.toFixed(1)} results per search`,
      );
      for (const { clients, result } of figure.concurrent) {
        print(`${figure.kind}-word search via MCP, ${clients} clients at once: ${latencySummary(result)}`);
        note(
          `search ${figure.kind} words at ${count(stage)}, ${clients} clients: MCP p50 / p95`,
          `${ms(percentile(result.latencies, 50))} / ${ms(percentile(result.latencies, 95))}`,
        );
      }
      const coreRatio = percentile(figure.baseline.latencies, 95) / percentile(figure.core.latencies, 95);
      print(
        `${figure.kind}-word search in process (searchRecords on the pool): ${latencySummary(figure.core)}`,
      );
      print(
        `${figure.kind}-word straightforward SQL: ${latencySummary(figure.baseline)}; p95 ratio to MCP ${times(ratio)}, to searchRecords ${times(coreRatio)}`,
      );
      note(
        `search ${figure.kind} words at ${count(stage)}: MCP p50 / p95; searchRecords p95; straightforward SQL p95 (ratio to MCP, to searchRecords)`,
        `${ms(percentile(figure.mcp.latencies, 50))} / ${ms(percentile(figure.mcp.latencies, 95))}; ${ms(percentile(figure.core.latencies, 95))}; ${ms(percentile(figure.baseline.latencies, 95))} (${times(ratio)}, ${times(coreRatio)})`,
      );
    }
  }
  return loaded;
}

const bench = await createBenchDatabase(serverUrl);
const database = openPostgres(bench.url, { poolSize: POOL_SIZE });
// Interrupted, the benchmark still drops its database (its server processes get the signal too).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void database
      .close()
      .finally(() => bench.drop())
      .finally(() => process.exit(130));
  });
}
print(
  `MMW benchmark on ${bench.name} (dropped at the end); ${CLIENTS} concurrent clients, pool of ${POOL_SIZE}`,
);
if (process.env.BENCH_ONLY === 'multi-tenant') {
  try {
    await printMultiTenant(bench.url, database.db, REMEMBER_SECONDS, note);
    printSummary();
  } finally {
    await database.close();
    await bench.drop();
  }
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'stale') {
  try {
    await staleStatistics();
    printSummary();
  } finally {
    await database.close();
    await bench.drop();
  }
  process.exit(0);
}
if (process.env.BENCH_ONLY === 'guard') {
  try {
    print('\n## Memory Guard');
    for (const [label, value] of await measureGuardCost()) note(label, value);
    const tenant = await setUpTenant(bench, database.db, CLIENTS);
    note(...(await measureGuardShare(bench.url, tenant.keys, REMEMBER_SECONDS)));
    printSummary();
  } finally {
    await database.close();
    await bench.drop();
  }
  process.exit(0);
}
try {
  const tenant = await setUpTenant(bench, database.db, CLIENTS);
  const [searchKey] = tenant.keys.slice(1);
  const [searchCaller] = tenant.callers.slice(1);
  if (searchKey === undefined || searchCaller === undefined)
    throw new Error('the benchmark needs two members');
  if (process.env.BENCH_ONLY === 'search') {
    await searchStages(tenant, searchKey, searchCaller);
    printSummary();
    process.exitCode = 0;
  } else {
    print('\n## remember, empty workspace');
    const empty = await measureProtections(bench.url, tenant.keys, REMEMBER_SECONDS);
    const floor10 = await measureFloor(bench.url, 10, REMEMBER_SECONDS);
    const floorRate = mean(empty.floor.map(rate));
    const onRate = mean(empty.on.map(rate));
    const offRate = mean(empty.off.map(rate));
    for (const result of empty.floor)
      print(
        `bare fastify route, one INSERT, ${CLIENTS} clients: ${throughputSummary(result)}; ${cpuSummary(result.cpu)}`,
      );
    print(`bare fastify route, one INSERT, 10 clients: ${throughputSummary(floor10)}`);
    for (const result of empty.on)
      print(`remember, protections on:  ${throughputSummary(result)}; ${cpuSummary(result.cpu)}`);
    for (const result of empty.off)
      print(`remember, protections off: ${throughputSummary(result)}; ${cpuSummary(result.cpu)}`);
    print(
      `remember: ${perSecond(onRate)} = ${percent(onRate / floorRate)} of the bare-INSERT floor (measured in turn)`,
    );
    print(`guard, idempotency and limits on: ${percent(onRate / offRate)} of the same call with them off`);
    note('bare INSERT floor (8 / 10 clients)', `${perSecond(floorRate)} / ${perSecond(rate(floor10))}`);
    note(
      'remember, empty workspace, 8 clients',
      `${perSecond(onRate)} (${percent(onRate / floorRate)} of the floor)`,
    );
    note('remember CPU per call, protections on: ingress / PostgreSQL / load', cpuSummary(meanCpu(empty.on)));
    note(
      'remember with protections on / off',
      `${perSecond(onRate)} / ${perSecond(offRate)} = ${percent(onRate / offRate)}`,
    );
    const sustained = await measureRememberWindows(
      bench.url,
      tenant.keys,
      ALL_ON,
      REMEMBER_SECONDS,
      SUSTAINED_WINDOWS,
    );
    const sustainedRates = sustained.map((result) => perSecond(rate(result))).join(', ');
    const [first] = sustained;
    const last = sustained.at(-1);
    const drift = first && last ? rate(last) / rate(first) : Number.NaN;
    print(
      `remember, protections on, ${SUSTAINED_WINDOWS} windows of ${REMEMBER_SECONDS} s on one server: ${sustainedRates}; last ${percent(drift)} of first`,
    );
    note(
      `remember sustained (${SUSTAINED_WINDOWS} × ${REMEMBER_SECONDS} s, one server)`,
      `${sustainedRates} (last ${percent(drift)} of first)`,
    );
    note('MCP layer alone, remember, 8 clients', await printMcpLayer());
    await printMultiTenant(bench.url, database.db, REMEMBER_SECONDS, note);
    if (process.env.BENCH_ONLY === 'remember') {
      printSummary();
      process.exitCode = 0;
    } else {
      print('\n## Memory Guard');
      for (const [label, value] of await measureGuardCost()) note(label, value);
      note(...(await measureGuardShare(bench.url, tenant.keys, REMEMBER_SECONDS)));

      await staleStatistics();
      const loaded = await searchStages(tenant, searchKey, searchCaller);

      const scale = count(loaded);
      print(`\n## remember at ${scale} records in the account`);
      const atScale = await measureRemember(
        bench.url,
        tenant.keys,
        { guard: true, idempotency: true, limits: true },
        REMEMBER_SECONDS,
      );
      print(
        `remember, protections on: ${throughputSummary(atScale)}; ${percent(rate(atScale) / onRate)} of the empty-workspace rate; ${cpuSummary(atScale.cpu)}`,
      );
      note(
        `remember at ${scale} records, 8 clients`,
        `${perSecond(rate(atScale))} (${percent(rate(atScale) / onRate)} of empty)`,
      );

      print(`\n## query expansion at ${scale} records`);
      const expansion = await measureExpansion(bench.url, searchKey);
      const added = (p: number) =>
        percentile(expansion.withExpansion.latencies, p) - percentile(expansion.without.latencies, p);
      print(
        `searches that need expansion, expanding:   ${latencySummary(expansion.withExpansion)} (${percent(expansion.expandedShare)} expanded)`,
      );
      print(`the same searches, search never expanding: ${latencySummary(expansion.without)}`);
      print(`expansion adds p50 ${ms(added(50))}, p95 ${ms(added(95))}`);
      for (const [query, result] of expansion.byQuery)
        print(`  ${query.padEnd(24)} ${latencySummary(result)}`);
      note(`expansion added latency at ${scale}: p50 / p95`, `${ms(added(50))} / ${ms(added(95))}`);

      print(
        `\n## archivist backlog at ${scale} records (worker in the ingress process, as pnpm start runs it)`,
      );
      const backlog = await measureBacklog(bench, tenant.keys);
      const drained = backlog.backlogAtStart - backlog.backlogAtEnd + backlog.draining.calls;
      print(`remember at a steady ${BACKLOG_RATE}/s, worker idle:      ${latencySummary(backlog.idle)}`);
      print(`remember at a steady ${BACKLOG_RATE}/s, backlog draining: ${latencySummary(backlog.draining)}`);
      print(
        `backlog: ${count(backlog.backlogAtStart)} jobs at start, ${count(backlog.backlogAtEnd)} after ${Math.round(backlog.drainSeconds)} s; the worker did ${perSecond(drained / backlog.drainSeconds)} jobs`,
      );
      note(
        `remember p95 at ${BACKLOG_RATE}/s: worker idle / draining 10,000 jobs`,
        `${ms(percentile(backlog.idle.latencies, 95))} / ${ms(percentile(backlog.draining.latencies, 95))} (worker: ${perSecond(drained / backlog.drainSeconds)} jobs)`,
      );

      print('\n## recall of search on the labelled sets (held-out halves)');
      for (const result of await printRecall(serverUrl)) {
        const all = result.mmw.get('all');
        if (all)
          note(
            `recall@10 / MRR, ${result.set} set (held out)`,
            `${(all.at10 / all.questions).toFixed(2)} / ${(all.mrr / all.questions).toFixed(2)}`,
          );
      }

      printSummary();
    }
  }
} finally {
  await database.close();
  await bench.drop();
}
