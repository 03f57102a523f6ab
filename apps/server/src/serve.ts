import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDashboardApp, instrumentDashboard, smtpTransport } from '@mmw/dashboard';
import {
  claudeAddCommand,
  closeServer,
  createRuntime,
  ensureLocalSetup,
  failStartupInOneLine,
  handleShutdown,
  openConfiguredDatabase,
  readinessGate,
  startMetricsServer,
} from '@mmw/core';
import { takeLock } from '@mmw/db';
import { buildMcpApp, instrumentMcp } from '@mmw/mcp';
import { loadServerConfig } from './config.ts';

const startup = failStartupInOneLine('MMW');
const config = loadServerConfig();
const embedded = config.DATABASE_URL === undefined;
let releaseLock = () => {};
if (embedded) {
  mkdirSync(config.MMW_DATA_DIR, { recursive: true });
  releaseLock = takeLock(config.MMW_DATA_DIR);
  startup.closeOnFailure(releaseLock);
}

const database = await openConfiguredDatabase(config);
startup.closeOnFailure(() => database.close());
const runtime = await createRuntime(database, config);
startup.closeOnFailure(() => runtime.stop());
await runtime.startWorker();
const listeners: { close(): Promise<unknown> }[] = [];
const metrics =
  config.METRICS_PORT === undefined ? undefined : await startMetricsServer(database, config.HOST, config.METRICS_PORT);
const shutdown = handleShutdown({
  delayMs: config.SHUTDOWN_DELAY_MS,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  steps: [
    () => Promise.all(listeners.map((listener) => listener.close())),
    () => runtime.stop(),
    () => closeServer(metrics),
    () => database.close(),
    async () => releaseLock(),
  ],
});
// The dashboard (the OAuth issuer) listens after the MCP ingress; its address is known by then.
let issuer: string | undefined = config.PUBLIC_URL === undefined ? undefined : new URL(config.PUBLIC_URL).origin;
const mcp = await buildMcpApp({
  db: database.db,
  authenticator: runtime.authenticator,
  service: runtime.service,
  logLevel: config.LOG_LEVEL,
  resourceUrl: config.MCP_PUBLIC_URL,
  authorizationServer: () => issuer,
  trustProxy: config.TRUST_PROXY,
  authFailuresPerMinute: config.MMW_AUTH_FAILURES_PER_MINUTE,
  timeouts: {
    requestMs: config.HTTP_REQUEST_TIMEOUT_MS,
    connectionMs: config.HTTP_CONNECTION_TIMEOUT_MS,
    keepAliveMs: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  },
});
instrumentMcp(mcp);
mcp.addHook('onRequest', readinessGate(shutdown));
listeners.push(mcp);
await mcp.listen({ host: config.HOST, port: config.MCP_PORT });
const mcpAddress = mcp.server.address();
const mcpPort = typeof mcpAddress === 'object' && mcpAddress ? mcpAddress.port : config.MCP_PORT;
const mcpUrl = `http://${config.HOST}:${mcpPort}/mcp`;

const dashboard = await buildDashboardApp({
  db: database.db,
  logLevel: config.LOG_LEVEL,
  publicUrl: config.PUBLIC_URL,
  mcpUrl: config.MCP_PUBLIC_URL ?? mcpUrl,
  config,
  billing: runtime.billing,
  expander: runtime.expander,
  guardInput: runtime.service.guardInput,
  trustProxy: config.TRUST_PROXY,
  ...(config.SMTP_URL === undefined
    ? { mailDir: join(config.MMW_DATA_DIR, 'mail') }
    : { mail: smtpTransport(config.SMTP_URL, config.MAIL_FROM) }),
});
instrumentDashboard(dashboard);
listeners.push(dashboard);
dashboard.addHook('onRequest', readinessGate(shutdown));
await dashboard.listen({ host: config.HOST, port: config.DASHBOARD_PORT });
const dashboardAddress = dashboard.server.address();
const dashboardPort =
  typeof dashboardAddress === 'object' && dashboardAddress ? dashboardAddress.port : config.DASHBOARD_PORT;
const dashboardUrl = config.PUBLIC_URL ?? `http://${config.HOST}:${dashboardPort}`;
issuer = new URL(dashboardUrl).origin;
const credentialsFile = join(config.MMW_DATA_DIR, 'local-credentials');
// Only the embedded database gets a local account with a printed key and password: a hosted one
// (DATABASE_URL) starts empty, and its people sign up.
const local = embedded ? await ensureLocalSetup(database.db) : undefined;
if (local) {
  const lines = [
    '',
    'MMW is ready. A local account, project and key were created:',
    `  key: ${local.key}`,
    '',
    'Add MMW to Claude Code:',
    `  ${claudeAddCommand(mcpUrl, local.key)}`,
    '',
    `Dashboard: ${dashboardUrl}  (sign in as ${local.email} with password ${local.password})`,
    '',
  ];
  // Kept on the user's own machine, readable by them alone, to find the key again.
  if (embedded) writeFileSync(credentialsFile, `${lines.join('\n')}\n`, { mode: 0o600 });
  process.stdout.write(`${lines.join('\n')}\n`);
} else {
  const hint = embedded ? ` (the local key and password are in ${credentialsFile})` : '';
  process.stdout.write(`MMW is ready: MCP at ${mcpUrl}, dashboard at ${dashboardUrl}${hint}\n`);
}
startup.started();
