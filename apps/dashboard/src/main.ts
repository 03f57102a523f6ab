import { createRuntime, loadConfig, openConfiguredDatabase } from '@mmw/core';
import { buildDashboardApp } from './dashboard-app.ts';

// The dashboard alone, for deployments that scale it apart from the MCP ingress; stateless, so any
// number of replicas can share one PostgreSQL. Its jobs (Stripe's webhooks) run on the worker.
const config = loadConfig();
const database = await openConfiguredDatabase(config, { requireUrl: 'the dashboard' });
const runtime = await createRuntime(database, config);
const app = await buildDashboardApp({
  db: database.db,
  logLevel: config.LOG_LEVEL,
  publicUrl: config.PUBLIC_URL,
  mcpUrl: config.MCP_PUBLIC_URL,
  billing: runtime.billing,
  expander: runtime.expander,
});
await app.listen({ host: config.HOST, port: config.DASHBOARD_PORT });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.DASHBOARD_PORT;
process.stdout.write(`Dashboard listening on http://${config.HOST}:${port}\n`);

const stop = async () => {
  await app.close();
  await runtime.stop();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
