import {
  closeServer,
  createRuntime,
  failStartupInOneLine,
  handleShutdown,
  openConfiguredDatabase,
  startMetricsServer,
} from '@mmw/core';
import { loadWorkerConfig } from './config.ts';

// The job worker alone (archivist and the other jobs), for deployments that scale it apart from the
// ingress and the dashboard; any number of workers can share one PostgreSQL. On SIGTERM it takes no
// new job and finishes the ones it holds; a job it could not finish expires and another worker retries it.
const startup = failStartupInOneLine('worker');
const config = loadWorkerConfig();
const database = await openConfiguredDatabase(config, { requireUrl: 'the worker' });
startup.closeOnFailure(() => database.close());
const runtime = await createRuntime(database, config);
startup.closeOnFailure(() => runtime.stop());
const metrics =
  config.METRICS_PORT === undefined ? undefined : await startMetricsServer(database, config.HOST, config.METRICS_PORT);
handleShutdown({
  delayMs: 0,
  timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
  steps: [() => runtime.stop(), () => closeServer(metrics), () => database.close()],
});
await runtime.startWorker();
startup.started();
process.stdout.write('MMW worker started\n');
