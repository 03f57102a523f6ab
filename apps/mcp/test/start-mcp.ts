import { createRuntime, loadConfig, provisionKey, type ProvisionedKey, type Runtime } from '@mmw/core';
import type { Database } from '@mmw/db';
import { buildMcpApp } from '../src/mcp-app.ts';

// The app's own test helper, published to the other apps' tests as @mmw/mcp/testing, so that
// @mmw/test-support depends on no app (and on no package of ours above the database).

export interface RunningMcp {
  url: string;
  runtime: Runtime;
  /** A new key for a project of an account, both created when missing. */
  key(account: string, project?: string, member?: string): Promise<ProvisionedKey>;
  close(): Promise<void>;
}

/** The MCP ingress on a free port of 127.0.0.1, over the given database. */
export async function startMcp(
  database: Database,
  options: {
    env?: Record<string, string>;
    now?: () => Date;
    worker?: boolean;
    /** The OAuth issuer its protected resource metadata names (a dashboard started later). */
    authorizationServer?: () => string | undefined;
  } = {},
): Promise<RunningMcp> {
  const config = loadConfig(options.env ?? {});
  const runtime = await createRuntime(database, config, options.now ? { now: options.now } : {});
  if (options.worker) await runtime.startWorker();
  const app = await buildMcpApp({
    db: database.db,
    authenticator: runtime.authenticator,
    service: runtime.service,
    logLevel: 'silent',
    trustProxy: config.TRUST_PROXY,
    authFailuresPerMinute: config.MMW_AUTH_FAILURES_PER_MINUTE,
    ...(options.authorizationServer ? { authorizationServer: options.authorizationServer } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/mcp`,
    runtime,
    key: (account, project = 'default', member) => provisionKey(database.db, { account, project, member }),
    close: async () => {
      await app.close();
      await runtime.stop();
    },
  };
}
