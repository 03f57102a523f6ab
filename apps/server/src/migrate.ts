import { loadConfig } from '@mmw/core';
import { migratePostgres } from '@mmw/db';

// Applies the committed migrations and exits: the one-shot step of a release, run as the database's
// owner before new replicas start (a compose service, a Kubernetes Job).
const config = loadConfig();
if (config.DATABASE_URL === undefined) throw new Error('DATABASE_URL is required to run the migrations.');
await migratePostgres(config.DATABASE_URL);
process.stdout.write('migrations applied\n');
