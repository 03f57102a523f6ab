import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildDashboardApp, loadDashboardConfig, smtpTransport } from '@mmw/dashboard';
import { claudeAddCommand, createRuntime, ensureLocalSetup, loadConfig, openConfiguredDatabase } from '@mmw/core';
import { takeLock } from '@mmw/db';
import { buildMcpApp } from '@mmw/mcp';

const config = loadConfig();
const dashboardConfig = loadDashboardConfig();
const embedded = config.DATABASE_URL === undefined;
let releaseLock = () => {};
if (embedded) {
  mkdirSync(config.MMW_DATA_DIR, { recursive: true });
  releaseLock = takeLock(config.MMW_DATA_DIR);
}

const database = await openConfiguredDatabase(config);
const runtime = await createRuntime(database, config);
await runtime.startWorker();
const mcp = await buildMcpApp({ db: database.db, service: runtime.service, logLevel: config.LOG_LEVEL });
await mcp.listen({ host: config.HOST, port: config.MCP_PORT });
const mcpAddress = mcp.server.address();
const mcpPort = typeof mcpAddress === 'object' && mcpAddress ? mcpAddress.port : config.MCP_PORT;
const mcpUrl = `http://${config.HOST}:${mcpPort}/mcp`;

const dashboard = await buildDashboardApp({
  db: database.db,
  logLevel: config.LOG_LEVEL,
  publicUrl: config.PUBLIC_URL,
  mcpUrl: config.MCP_PUBLIC_URL ?? mcpUrl,
  billing: runtime.billing,
  expander: runtime.expander,
  trustProxy: dashboardConfig.TRUST_PROXY,
  ...(dashboardConfig.SMTP_URL === undefined
    ? { mailDir: join(config.MMW_DATA_DIR, 'mail') }
    : { mail: smtpTransport(dashboardConfig.SMTP_URL, dashboardConfig.MAIL_FROM) }),
});
await dashboard.listen({ host: config.HOST, port: config.DASHBOARD_PORT });
const dashboardAddress = dashboard.server.address();
const dashboardPort = typeof dashboardAddress === 'object' && dashboardAddress ? dashboardAddress.port : config.DASHBOARD_PORT;
const dashboardUrl = config.PUBLIC_URL ?? `http://${config.HOST}:${dashboardPort}`;
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

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await Promise.allSettled([mcp.close(), dashboard.close()]);
  await runtime.stop();
  await database.close();
  releaseLock();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
