import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { provisionKey } from '@mmw/core';
import { openPostgres } from '@mmw/db';
import { callTool } from '../http-client.ts';
import { createAppRole, createOwnCluster } from './own-cluster.ts';
import { PhaseStats } from './percentiles.ts';

// Two MCP ingresses, two dashboards and two workers from the build output (pnpm build first), on a
// PostgreSQL cluster of the script's own (port 5441), behind haproxy; 70% search / 30% remember over
// 1,000 projects; faults: kill -9 of an ingress, a restart of PostgreSQL, kill -9 of a worker mid-job.
const env = process.env;
const phaseSeconds = Number(env.SOAK_PHASE_SECONDS ?? 40);
const concurrency = Number(env.SOAK_CONCURRENCY ?? 12);
const pgPort = Number(env.SOAK_PG_PORT ?? 5441);
const basePort = Number(env.SOAK_BASE_PORT ?? 18284);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const cluster = createOwnCluster(pgPort, ['max_connections=200', 'fsync=off']);
const children = new Map<string, ChildProcess>();
const crashes: string[] = [];
let stopping = false;
let haproxy: ChildProcess | undefined;
const cleanup = () => {
  stopping = true;
  for (const child of children.values()) child.kill('SIGKILL');
  haproxy?.kill('SIGKILL');
  cluster.remove();
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => {
  cleanup();
  process.exit(130);
});

try {
  cluster.start();
  cluster.run('createdb', ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres', 'mmw']);
  createAppRole(cluster, 'mmw', 'soak');
  const ownerUrl = cluster.url('mmw');
  const appUrl = cluster.url('mmw', 'mmw_service', 'soak');
  await run('migrate', ['apps/server/dist/migrate.js'], { DATABASE_URL: ownerUrl });

  const owner = openPostgres(ownerUrl, { poolSize: 4 });
  const keys: string[] = [];
  for (let i = 0; i < 1000; i++) {
    keys.push((await provisionKey(owner.db, { account: `soak-${i % 100}`, project: `project-${i}` })).key);
  }
  await owner.close();

  const common = {
    DATABASE_URL: appUrl,
    MMW_MIGRATE_AT_START: 'false',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'error',
    DATABASE_POOL_SIZE: '8',
    SHUTDOWN_DELAY_MS: '0',
    MMW_KEY_CALLS_PER_MINUTE: '100000',
    MMW_PROJECT_CALLS_PER_MINUTE: '100000',
  };
  const ports = { ingressA: basePort, ingressB: basePort + 1, dashA: basePort + 2, dashB: basePort + 3, mcp: basePort + 6, dash: basePort + 7 };
  const starts: Record<string, () => ChildProcess> = {
    ingressA: () => start('ingressA', 'apps/mcp/dist/main.js', { ...common, MCP_PORT: String(ports.ingressA) }),
    ingressB: () => start('ingressB', 'apps/mcp/dist/main.js', { ...common, MCP_PORT: String(ports.ingressB) }),
    dashA: () => start('dashA', 'apps/dashboard/dist/main.js', { ...common, DASHBOARD_PORT: String(ports.dashA) }),
    dashB: () => start('dashB', 'apps/dashboard/dist/main.js', { ...common, DASHBOARD_PORT: String(ports.dashB) }),
    workerA: () => start('workerA', 'apps/server/dist/worker.js', common),
    workerB: () => start('workerB', 'apps/server/dist/worker.js', common),
  };
  for (const begin of Object.values(starts)) begin();
  haproxy = startHaproxy(ports);
  const mcpUrl = `http://127.0.0.1:${ports.mcp}/mcp`;
  await waitReady(`http://127.0.0.1:${ports.mcp}/readyz`);
  await waitReady(`http://127.0.0.1:${ports.dash}/readyz`);

  const remembered: string[] = [];
  const seeded: number[] = [];
  const seededSet = new Set<number>();
  let phase = new PhaseStats('before');
  const phases: PhaseStats[] = [phase];
  let running = true;
  const client = async () => {
    while (running) {
      // A search goes to a project that has records (a search of an empty project is the spec's
      // "not active" answer, not a service's); until there are some, the call is a remember.
      const pick = Math.floor(Math.random() * keys.length);
      const remember = Math.random() < 0.3 || seeded.length === 0;
      const index = remember ? pick : (seeded[pick % seeded.length] ?? pick);
      const key = keys[index] ?? '';
      const content = `soak ${randomUUID()} the archivist reads this fact about deploys`;
      const started = performance.now();
      const current = phase;
      try {
        const answer = remember
          ? await callTool(mcpUrl, key, 'remember', { content })
          : await callTool(mcpUrl, key, 'search', { query: 'archivist deploys fact' });
        const ms = performance.now() - started;
        if (answer.ok) {
          current.add(ms, 'ok');
          if (remember) {
            remembered.push(content);
            if (!seededSet.has(index)) {
              seededSet.add(index);
              seeded.push(index);
            }
          }
        } else if (/^HTTP (429|503)|rate limit|try again/i.test(answer.text)) current.add(ms, 'refused');
        else current.add(ms, 'error', answer.text.slice(0, 80));
      } catch (error) {
        current.add(performance.now() - started, 'error', String((error as { code?: string }).code ?? error));
      }
    }
  };
  const load = Promise.all(Array.from({ length: concurrency }, client));
  const next = (name: string) => {
    phase = new PhaseStats(name);
    phases.push(phase);
  };

  await sleep(phaseSeconds * 1000);
  next('ingress kill -9 (+restart)');
  children.get('ingressA')?.kill('SIGKILL');
  await sleep(5000);
  starts.ingressA?.();
  await sleep(phaseSeconds * 1000 - 5000);
  next('after ingress fault');
  await sleep(phaseSeconds * 1000);
  next('PostgreSQL restart');
  cluster.stop('fast');
  cluster.start();
  await sleep(phaseSeconds * 1000);
  next('worker kill -9 mid-job');
  await waitForActiveJob(ownerUrl);
  children.get('workerA')?.kill('SIGKILL');
  await sleep(5000);
  starts.workerA?.();
  await sleep(phaseSeconds * 1000 - 5000);
  next('after all faults');
  await sleep(phaseSeconds * 1000);
  running = false;
  await load;

  const check = await verify(ownerUrl, remembered);
  process.stdout.write(`\n${PhaseStats.header()}\n|${'---|'.repeat(7)}\n${phases.map((p) => p.row()).join('\n')}\n\n`);
  const total = phases.reduce((n, p) => n + p.ok + p.refused + p.errors, 0);
  const errors = phases.reduce((n, p) => n + p.errors, 0);
  for (const p of phases) for (const [detail, n] of p.errorSamples) process.stdout.write(`  ${p.name}: ${n} × ${detail}\n`);
  process.stdout.write(
    `remembers acknowledged: ${remembered.length}; stored exactly once: ${check.once}; missing: ${check.missing}; duplicated: ${check.duplicated}\n` +
      `archivist jobs: ${check.jobs}; still waiting after the drain: ${check.pending}; in the dead-letter queue or failed: ${check.failed}\n` +
      `errors other than 429/503: ${errors} of ${total} (${((100 * errors) / total).toFixed(2)}%)\n`,
  );
  process.stdout.write(`processes that ended on their own and were restarted: ${crashes.length ? crashes.join('; ') : 'none'}\n`);
  const pass = check.missing === 0 && check.duplicated === 0 && check.pending === 0 && errors / total < 0.01;
  process.stdout.write(pass ? 'soak: PASS\n' : 'soak: FAIL\n');
  process.exitCode = pass ? 0 : 1;
} finally {
  cleanup();
}

function start(name: string, script: string, vars: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [join(repo, script)], {
    cwd: repo,
    env: { PATH: env.PATH ?? '', ...vars },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.set(name, child);
  // As an orchestrator does (restart: unless-stopped), a process that ends on its own is restarted;
  // each such end is counted and reported, since it is not one of the faults the script causes.
  child.on('exit', (code, signal) => {
    if (signal === 'SIGKILL' || children.get(name) !== child || stopping) return;
    crashes.push(`${name} exited with ${String(code ?? signal)}`);
    start(name, script, vars);
  });
  return child;
}

async function run(name: string, args: string[], vars: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, args.map((a, i) => (i === 0 ? join(repo, a) : a)), {
    cwd: repo,
    env: { PATH: env.PATH ?? '', ...vars },
    stdio: 'inherit',
  });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`${name} exited with ${String(code)}`);
}

function startHaproxy(ports: Record<string, number>): ChildProcess {
  const config = `global
  maxconn 4096
defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 60s
  timeout check 5s
  retries 3
  option redispatch
  # Only a request that never reached a server is retried: a remember is not idempotent without its key.
  retry-on conn-failure
frontend mcp
  bind 127.0.0.1:${ports.mcp}
  default_backend ingress
frontend dashboard
  bind 127.0.0.1:${ports.dash}
  default_backend dashboards
backend ingress
  option httpchk GET /readyz
  server a 127.0.0.1:${ports.ingressA} check inter 2s fall 3 rise 1
  server b 127.0.0.1:${ports.ingressB} check inter 2s fall 3 rise 1
backend dashboards
  option httpchk GET /readyz
  server a 127.0.0.1:${ports.dashA} check inter 2s fall 3 rise 1
  server b 127.0.0.1:${ports.dashB} check inter 2s fall 3 rise 1
`;
  const file = join(tmpdir(), `mmw-soak-haproxy-${process.pid}.cfg`);
  writeFileSync(file, config);
  return spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(url).then((r) => r.ok, () => false);
    if (ok) return;
    await sleep(500);
  }
  throw new Error(`${url} not ready after 120 s`);
}

async function query<T>(url: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function waitForActiveJob(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const [row] = await query<{ n: number }>(url, "select count(*)::int as n from pgboss.job where name = 'archivist' and state = 'active'");
    if ((row?.n ?? 0) > 0) return;
    await sleep(100);
  }
}

async function verify(url: string, remembered: string[]) {
  for (let i = 0; i < 240; i++) {
    const [row] = await query<{ n: number }>(url, "select count(*)::int as n from pgboss.job where name = 'archivist' and state in ('created', 'retry', 'active')");
    if ((row?.n ?? 0) === 0) break;
    await sleep(1000);
  }
  const rows = await query<{ content: string; n: number }>(url, "select content, count(*)::int as n from records where content like 'soak %' group by content");
  const stored = new Map(rows.map((r) => [r.content, r.n]));
  const jobs = await query<{ state: string; n: number }>(url, "select state::text, count(*)::int as n from (select state from pgboss.job where name = 'archivist' union all select state from pgboss.archive where name = 'archivist') j group by state");
  const count = (states: string[]) => jobs.filter((j) => states.includes(j.state)).reduce((n, j) => n + j.n, 0);
  return {
    once: remembered.filter((c) => stored.get(c) === 1).length,
    missing: remembered.filter((c) => !stored.has(c)).length,
    duplicated: [...stored.values()].filter((n) => n > 1).length,
    jobs: count(['created', 'retry', 'active', 'completed', 'failed', 'cancelled']),
    pending: count(['created', 'retry', 'active']),
    failed: count(['failed']),
  };
}
