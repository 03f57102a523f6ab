import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { executeSqlOn, withSystem, type Database } from '@mmw/db';

/**
 * The process's Prometheus metrics (served on METRICS_PORT when it is set). Labels carry names of
 * tools, procedures and queues, never a payload, a key or an account.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'mmw_process_' });

const latencyBuckets = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One MCP tool call: the tool's name and the HTTP status class of its answer. */
export const toolCallSeconds = new Histogram({
  name: 'mmw_tool_call_duration_seconds',
  help: 'MCP tool calls by tool and HTTP status class, with their latency',
  labelNames: ['tool', 'status'] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

/** One tRPC procedure call of the dashboard. */
export const procedureCallSeconds = new Histogram({
  name: 'mmw_trpc_procedure_duration_seconds',
  help: 'Dashboard tRPC procedure calls by procedure and HTTP status class, with their latency',
  labelNames: ['procedure', 'status'] as const,
  buckets: latencyBuckets,
  registers: [metricsRegistry],
});

export const guardRefusals = new Counter({
  name: 'mmw_guard_refusals_total',
  help: 'Records the Guard refused',
  registers: [metricsRegistry],
});

export const rateLimitRefusals = new Counter({
  name: 'mmw_rate_limit_refusals_total',
  help: 'Calls refused by a call limit, by the limit (key or project)',
  labelNames: ['limit'] as const,
  registers: [metricsRegistry],
});

/** The status class of an HTTP status: 2xx, 4xx, 5xx. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** A stored record still in the archivist's intake (decision 0060) waits for the archivist too. */
const queueDepthQuery = `
  select name, count(*)::int as depth,
         coalesce(extract(epoch from now() - min(since)), 0)::float8 as age
    from (select name, created_on as since from pgboss.job where state in ('created', 'retry')
          union all
          select 'archivist', r.created_at from archivist_pending p join records r on r.id = p.record_id) waiting
   group by name`;

/**
 * Gauges read from the database on each scrape: the connection pool's use, and each job queue's
 * depth and the age of its oldest waiting job (across tenants, so read as the system). A scrape
 * that cannot reach the database leaves the queue gauges empty rather than failing the whole answer.
 */
export function observeDatabase(database: Database): void {
  metricsRegistry.removeSingleMetric('mmw_db_pool_connections');
  metricsRegistry.removeSingleMetric('mmw_job_queue_depth');
  metricsRegistry.removeSingleMetric('mmw_job_queue_oldest_age_seconds');
  new Gauge({
    name: 'mmw_db_pool_connections',
    help: 'Connections of the database pool: total, idle, and callers waiting for one',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    collect() {
      const pool = database.pool;
      this.set({ state: 'total' }, pool?.totalCount ?? 0);
      this.set({ state: 'idle' }, pool?.idleCount ?? 0);
      this.set({ state: 'waiting' }, pool?.waitingCount ?? 0);
    },
  });
  const waiting = () =>
    withSystem(database.db, (tx) => executeSqlOn(tx)(queueDepthQuery)).then(
      (result) => result.rows,
      () => [],
    );
  new Gauge({
    name: 'mmw_job_queue_depth',
    help: 'Jobs waiting in each queue (created or to retry)',
    labelNames: ['queue'] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const row of await waiting()) this.set({ queue: String(row.name) }, Number(row.depth));
    },
  });
  new Gauge({
    name: 'mmw_job_queue_oldest_age_seconds',
    help: 'Age of the oldest job waiting in each queue',
    labelNames: ['queue'] as const,
    registers: [metricsRegistry],
    async collect() {
      this.reset();
      for (const row of await waiting()) this.set({ queue: String(row.name) }, Number(row.age));
    },
  });
}
