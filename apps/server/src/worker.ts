import { createRuntime, loadConfig, openConfiguredDatabase } from '@mmw/core';

// The job worker alone (archivist and the other jobs), for deployments that scale it apart from the
// ingress and the dashboard; any number of workers can share one PostgreSQL.
const config = loadConfig();
const database = await openConfiguredDatabase(config, { requireUrl: 'the worker' });
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
