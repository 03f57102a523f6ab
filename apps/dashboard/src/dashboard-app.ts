import Fastify, { type FastifyInstance } from 'fastify';
import { isDatabaseReady, type Db } from '@mmw/db';

export interface DashboardAppOptions {
  db: Db;
  logLevel?: string;
}

export async function buildDashboardApp(options: DashboardAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: options.logLevel ?? 'info' } });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (await isDatabaseReady(options.db)) return { status: 'ready' };
    return reply.status(503).send({ status: 'unavailable' });
  });
  app.get('/', async (_request, reply) =>
    reply.type('text/html').send('<!doctype html><title>MMW</title><h1>MMW</h1><p>The dashboard is on its way.</p>'),
  );
  return app;
}
