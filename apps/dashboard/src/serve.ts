import {
  closeServer,
  createRuntime,
  failStartupInOneLine,
  handleShutdown,
  openConfiguredDatabase,
  readinessGate,
  startMetricsServer,
} from '@mmw/core';
import { join } from 'node:path';
import { loadDashboardConfig } from './config.ts';
import { buildDashboardApp } from './dashboard-app.ts';
import { smtpTransport } from './mail-transport.ts';
import { instrumentDashboard } from './request-metrics.ts';

// The dashboard alone, for deployments that scale it apart from the MCP ingress; stateless, so any
// number of replicas can share one PostgreSQL. Its jobs (Stripe's webhooks) run on the worker.
const startup = failStartupInOneLine('dashboard');
const config = loadDashboardConfig();
const database = await openConfiguredDatabase(config, { requireUrl: 'the dashboard' });
startup.closeOnFailure(() => database.close());
const runtime = await createRuntime(database, config);
startup.closeOnFailure(() => runtime.stop());
const app = await buildDashboardApp({
  db: database.db,
  logLevel: config.LOG_LEVEL,
  publicUrl: config.PUBLIC_URL,
  mcpUrl: config.MCP_PUBLIC_URL,
  config,
  billing: runtime.billing,
  expander: runtime.expander,
  guardInput: runtime.service.guardInput,
  trustProxy: config.TRUST_PROXY,
  ...(config.SMTP_URL === undefined
    ? { mailDir: join(config.MMW_DATA_DIR, 'mail') }
    : { mail: smtpTransport(config.SMTP_URL, config.MAIL_FROM) }),
});
instrumentDashboard(app);
const metrics =
  config.METRICS_PORT === undefined ? undefined : await startMetricsServer(database, config.HOST, config.METRICS_PORT);
const shutdown = handleShutdown({
  delayMs: config.SHUTDOWN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  steps: [() => app.close(), () => runtime.stop(), () => closeServer(metrics), () => database.close()],
});
app.addHook('onRequest', readinessGate(shutdown));
await app.listen({ host: config.HOST, port: config.DASHBOARD_PORT });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.DASHBOARD_PORT;
startup.started();
process.stdout.write(`Dashboard listening on http://${config.HOST}:${port}\n`);
