import {
  closeServer,
  createRuntime,
  failStartupInOneLine,
  handleShutdown,
  openConfiguredDatabase,
  readinessGate,
  startMetricsServer,
} from '@mmw/core';
import { loadMcpConfig } from './config.ts';
import { buildMcpApp } from './mcp-app.ts';
import { instrumentMcp } from './request-metrics.ts';

// The MCP ingress alone, for deployments that scale it apart from the dashboard; stateless, so any
// number of replicas can share one PostgreSQL.
const startup = failStartupInOneLine('MCP ingress');
const config = loadMcpConfig();
const database = await openConfiguredDatabase(config, { requireUrl: 'the MCP ingress' });
startup.closeOnFailure(() => database.close());
const runtime = await createRuntime(database, config);
startup.closeOnFailure(() => runtime.stop());
const app = await buildMcpApp({
  db: database.db,
  authenticator: runtime.authenticator,
  service: runtime.service,
  logLevel: config.LOG_LEVEL,
  resourceUrl: config.MCP_PUBLIC_URL,
  authorizationServer: () => (config.PUBLIC_URL === undefined ? undefined : new URL(config.PUBLIC_URL).origin),
  trustProxy: config.TRUST_PROXY,
  authFailuresPerMinute: config.MMW_AUTH_FAILURES_PER_MINUTE,
  timeouts: {
    requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionMs: config.HTTP_CONNECTION_TIMEOUT_MS,
    keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  },
});
instrumentMcp(app);
const metrics =
  config.METRICS_PORT === undefined ? undefined : await startMetricsServer(database, config.HOST, config.METRICS_PORT);
const shutdown = handleShutdown({
  delayMs: config.SHUTDOWN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  steps: [() => app.close(), () => runtime.stop(), () => closeServer(metrics), () => database.close()],
});
app.addHook('onRequest', readinessGate(shutdown));
await app.listen({ host: config.HOST, port: config.MCP_PORT });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.MCP_PORT;
startup.started();
process.stdout.write(`MCP ingress listening on http://${config.HOST}:${port}/mcp\n`);
