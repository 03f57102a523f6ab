import { createRuntime, loadConfig, openConfiguredDatabase } from '@mmw/core';
import { buildMcpApp } from './mcp-app.ts';

// The MCP ingress alone, for deployments that scale it apart from the dashboard; stateless, so any
// number of replicas can share one PostgreSQL.
const config = loadConfig();
const database = await openConfiguredDatabase(config, { requireUrl: 'the MCP ingress' });
const runtime = await createRuntime(database, config);
const app = await buildMcpApp({
  db: database.db,
  service: runtime.service,
  logLevel: config.LOG_LEVEL,
  timeouts: {
    requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionMs: config.HTTP_CONNECTION_TIMEOUT_MS,
    keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  },
});
await app.listen({ host: config.HOST, port: config.MCP_PORT });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.MCP_PORT;
process.stdout.write(`MCP ingress listening on http://${config.HOST}:${port}/mcp\n`);

const stop = async () => {
  await app.close();
  await runtime.stop();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
