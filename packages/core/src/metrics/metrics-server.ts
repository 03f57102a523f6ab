import { createServer, type Server } from 'node:http';
import type { Database } from '@mmw/db';
import { metricsRegistry, observeDatabase } from './metrics.ts';

/**
 * Prometheus' scrape endpoint, GET /metrics, on a port of its own (METRICS_PORT), apart from the
 * public listeners so that it is never exposed with them.
 */
export async function startMetricsServer(database: Database, host: string, port: number): Promise<Server> {
  observeDatabase(database);
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    metricsRegistry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(body),
      () => response.writeHead(500).end(),
    );
  });
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`Metrics at http://${host}:${bound}/metrics\n`);
  return server;
}

/** Closes a server of node:http, answering once its connections are gone. */
export const closeServer = (server: Server | undefined): Promise<void> =>
  new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
