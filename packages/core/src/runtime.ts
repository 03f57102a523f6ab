import type { Database } from '@mmw/db';
import { createBuiltInAnalyser, type Analyser } from './archivist/analyser.ts';
import { createModelAnalyser } from './archivist/model-analyser.ts';
import { createModelExpander } from './archivist/model-expander.ts';
import { createBuiltInExpander, type QueryExpander } from './archivist/query-expansion.ts';
import { createBilling, type Billing } from './billing/billing.ts';
import type { Config } from './config.ts';
import { startArchivistIntake } from './jobs/archivist-intake.ts';
import { archivistJob } from './jobs/archivist-job.ts';
import { createCallLimits } from './limits/call-limits.ts';
import { createJobQueue, runnable, type JobQueue } from './jobs/job-queue.ts';
import { createModelJudge } from './guard/index.ts';
import { oauthSweepJob } from './oauth/sweep-expired.ts';
import { createCallerAuthenticator, type CallerAuthenticator } from './keys/caller-authenticator.ts';
import { createMemoryService, guardPoolFor, type MemoryService, type Protections } from './memory/memory-service.ts';

/** Everything a process of MMW runs on one database: the memory service, the job queue and its worker. */
export interface Runtime {
  /** Resolves a presented key or OAuth token to the session the service's tools take. */
  authenticator: CallerAuthenticator;
  service: MemoryService;
  jobs: JobQueue;
  /** Plans, Checkout, the customer portal and Stripe's webhooks; off without STRIPE_SECRET_KEY. */
  billing: Billing;
  /** The query expander search uses, so that every door (MCP, dashboard) searches alike. */
  expander: QueryExpander;
  /**
   * How often the model gave no usable answer and the built-in analyser, expander or Guard
   * verdict stood in.
   */
  modelFallbacks(): number;
  startWorker(): Promise<void>;
  stop(): Promise<void>;
}

export async function createRuntime(
  database: Database,
  config: Config,
  options: { now?: () => Date; protections?: Protections } = {},
): Promise<Runtime> {
  let fallbacks = 0;
  const onFallback = () => {
    fallbacks++;
  };
  const builtInAnalyser = createBuiltInAnalyser();
  const builtInExpander = createBuiltInExpander();
  const model =
    config.MMW_MODEL_URL === undefined
      ? undefined
      : {
          url: config.MMW_MODEL_URL,
          apiKey: config.MMW_MODEL_API_KEY ?? '',
          model: config.MMW_MODEL,
          timeoutMs: config.MMW_MODEL_TIMEOUT_MS,
        };
  const analyser: Analyser = model
    ? createModelAnalyser({ ...model, fallback: builtInAnalyser, onFallback })
    : builtInAnalyser;
  const expander: QueryExpander = model
    ? createModelExpander({ ...model, fallback: builtInExpander, onFallback })
    : builtInExpander;

  const jobs = await createJobQueue(database);
  const archivist = archivistJob({ db: database.db, analyser });
  let intake: { stop(): Promise<void> } | undefined;
  const callLimits = createCallLimits(database.db);
  const guardOff = options.protections !== undefined && !options.protections.guard;
  const guard = guardOff ? undefined : guardPoolFor(config);
  const service = createMemoryService({
    database,
    config,
    expander,
    ...(options.now ? { now: options.now } : {}),
    ...(options.protections ? { protections: options.protections } : {}),
    callLimits,
    ...(model ? { injectionJudge: createModelJudge({ ...model, onFallback }) } : {}),
    ...(guard ? { guard } : {}),
  });

  const billing = createBilling({
    db: database.db,
    config,
    jobs,
    ...(options.now ? { now: options.now } : {}),
  });

  const oauthSweep = oauthSweepJob({ db: database.db, jobs, ...(options.now ? { now: options.now } : {}) });
  const authenticator = createCallerAuthenticator({
    database,
    config,
    countCalls: options.protections?.limits ?? true,
  });

  return {
    authenticator,
    service,
    jobs,
    billing,
    expander,
    modelFallbacks: () => fallbacks,
    async startWorker() {
      await jobs.work([runnable(archivist), runnable(oauthSweep.job), ...billing.jobs], {
        concurrency: config.MMW_WORKER_CONCURRENCY,
        batchSize: config.MMW_WORKER_BATCH_SIZE,
      });
      intake = startArchivistIntake(database.db, jobs, archivist);
      await billing.scheduleReconciliation();
      await oauthSweep.schedule(options.now?.() ?? new Date());
    },
    async stop() {
      await callLimits.flush();
      await intake?.stop();
      await jobs.stop();
      await guard?.close();
    },
  };
}
