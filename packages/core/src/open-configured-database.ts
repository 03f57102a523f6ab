import { openDatabase, type Database } from '@mmw/db';
import type { Config } from './config.ts';

/** The database the configuration names: PostgreSQL at DATABASE_URL, or the embedded one under MMW_DATA_DIR. */
export function openConfiguredDatabase(
  config: Config,
  options: { requireUrl?: string } = {},
): Promise<Database> {
  if (options.requireUrl !== undefined && config.DATABASE_URL === undefined) {
    throw new Error(
      `DATABASE_URL is required to run ${options.requireUrl} on its own; use \`pnpm start\` for the embedded default.`,
    );
  }
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.MMW_DATA_DIR,
    limits: {
      poolSize: config.DATABASE_POOL_SIZE,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      lockTimeoutMs: config.DATABASE_LOCK_TIMEOUT_MS,
      idleInTransactionTimeoutMs: config.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      maxWaiting: config.DATABASE_MAX_WAITING,
    },
    migrate: config.MMW_MIGRATE_AT_START,
  });
}
