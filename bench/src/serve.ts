/**
 * A server process for the benchmark, started by main.ts with its settings in BENCH_SERVER (JSON):
 * - `runtime`: the MCP ingress as `pnpm start` runs it (createRuntime, buildMcpApp), with the worker
 *   in the same process when `worker` is set, and the protections as given;
 * - `no-expansion`: the same ingress whose search never expands, to price query expansion;
 * - `floor`: a bare fastify route doing one INSERT, the floor remember is compared with.
 */
import Fastify from 'fastify';
import { createCallerAuthenticator, createMemoryService, createRuntime, loadConfig, type Protections } from '@mmw/core';
import { openPostgres } from '@mmw/db';
import { buildMcpApp } from '@mmw/mcp';

export type ServerSettings =
  | { mode: 'runtime'; url: string; poolSize: number; worker: boolean; protections: Protections }
  | { mode: 'no-expansion'; url: string; poolSize: number }
  | { mode: 'floor'; url: string; poolSize: number };

const settings = JSON.parse(process.env.BENCH_SERVER ?? '{}') as ServerSettings;
const config = loadConfig({
  DATABASE_URL: settings.url,
  DATABASE_POOL_SIZE: String(settings.poolSize),
  LOG_LEVEL: 'silent',
  // The benchmark measures the cost of counting calls, not of refusing them.
  MMW_KEY_CALLS_PER_MINUTE: '100000000',
  MMW_PROJECT_CALLS_PER_MINUTE: '100000000',
});
const database = openPostgres(settings.url, { poolSize: settings.poolSize });
let stopRuntime = async () => {};

async function build() {
  if (settings.mode === 'floor') {
    const app = Fastify({ logger: false });
    const pool = database.pool;
    if (!pool) throw new Error('the floor needs a pool');
    app.post<{ Body: { content?: unknown } }>('/insert', async (request) => {
      const content = typeof request.body.content === 'string' ? request.body.content : '';
      const { rows } = await pool.query<{ id: string }>(
        'insert into bench_floor (content) values ($1) returning id',
        [content],
      );
      return { id: rows[0]?.id };
    });
    return app;
  }
  if (settings.mode === 'no-expansion') {
    const service = createMemoryService({ database, config });
    const authenticator = createCallerAuthenticator({ database, config });
    return buildMcpApp({ db: database.db, authenticator, service, logLevel: 'silent' });
  }
  const runtime = await createRuntime(database, config, { protections: settings.protections });
  if (settings.worker) await runtime.startWorker();
  stopRuntime = () => runtime.stop();
  return buildMcpApp({
    db: database.db,
    authenticator: runtime.authenticator,
    service: runtime.service,
    logLevel: 'silent',
  });
}

const app = await build();
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`listening on http://127.0.0.1:${port}\n`);

const stop = async () => {
  await app.close();
  await stopRuntime();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
