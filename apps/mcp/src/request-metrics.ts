import type { FastifyInstance } from 'fastify';
import { statusClass, toolCallSeconds } from '@mmw/core';

/** The tool a JSON-RPC body calls, or undefined for any other message (initialize, tools/list…). */
function toolOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || !('method' in body) || body.method !== 'tools/call') return undefined;
  const params = 'params' in body ? body.params : undefined;
  const name = typeof params === 'object' && params !== null && 'name' in params ? params.name : undefined;
  // A name the server does not know is counted under one label, so a caller cannot grow the series.
  return typeof name === 'string' && /^[a-z_]{1,32}$/.test(name) ? name : 'unknown';
}

/** Counts each MCP tool call and its latency, per tool, for /metrics. */
export function instrumentMcp(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'POST' || request.routeOptions.url !== '/mcp') return;
    const tool = toolOf(request.body);
    if (tool === undefined) return;
    toolCallSeconds.observe({ tool, status: statusClass(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
