import type { FastifyInstance } from 'fastify';
import { procedureCallSeconds, statusClass } from '@mmw/core';
import { appRouter } from './router.ts';

const procedures = new Set(Object.keys(appRouter._def.procedures));

/** Counts each tRPC procedure call and its latency, per procedure, for /metrics. */
export function instrumentDashboard(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    if (!request.url.startsWith('/trpc/')) return;
    const path = request.url.slice('/trpc/'.length).split('?')[0] ?? '';
    // A batch names its procedures with commas; a name the router does not have is not a label.
    for (const name of path.split(',')) {
      const procedure = procedures.has(name) ? name : 'unknown';
      procedureCallSeconds.observe({ procedure, status: statusClass(reply.statusCode) }, reply.elapsedTime / 1000);
    }
  });
}
