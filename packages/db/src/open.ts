import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createPglite, openEmbedded, openPostgres, type ConnectionLimits, type Database } from './client.ts';
import { migrateEmbedded, migratePostgres } from './migrate.ts';

export interface OpenOptions {
  /** A PostgreSQL URL; without one, the embedded database under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** The pool's size and the bounds on its waits (PostgreSQL only). */
  limits?: Partial<ConnectionLimits>;
  /** Apply pending migrations first (the default). */
  migrate?: boolean;
}

/** Opens the configured database, migrated, with its queries running as the application role. */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  if (options.databaseUrl !== undefined) {
    if (options.migrate !== false) await migratePostgres(options.databaseUrl);
    return openPostgres(options.databaseUrl, options.limits);
  }
  mkdirSync(options.dataDir, { recursive: true });
  const client = await createPglite(join(options.dataDir, 'pgdata'));
  if (options.migrate !== false) await migrateEmbedded(client);
  return openEmbedded(client);
}
