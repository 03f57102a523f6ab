import { createRuntime, loadConfig } from '@mmw/core';
import { openDatabase } from '@mmw/db';

// The job worker alone (archivist and the other jobs), for deployments that scale it apart from the
// ingress and the dashboard; any number of workers can share one PostgreSQL.
const config = loadConfig();
if (config.DATABASE_URL === undefined) {
  process.stderr.write('DATABASE_URL is required to run the worker on its own; use `pnpm start` for the embedded default.\n');
  process.exit(1);
}
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.MMW_DATA_DIR,
  poolSize: config.DATABASE_POOL_SIZE,
});
const runtime = await createRuntime(database, config);
await runtime.startWorker();
process.stdout.write('MMW worker started\n');

const stop = async () => {
  await runtime.stop();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
