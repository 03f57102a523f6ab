import { stopTracing } from '../tracing/tracing.ts';

/** What a process closes on its way out, in order: its listeners, then its work, then its database. */
export type ShutdownStep = () => Promise<unknown>;

export interface ShutdownOptions {
  /** How long readiness says "draining" before the listeners close, so a load balancer stops sending. */
  delayMs: number;
  /** The bound on the whole shutdown: past it the process exits 1 with what was left undone. */
  timeoutMs: number;
  steps: ShutdownStep[];
  /** One line to stderr; pino's logger is the app's, not the process's. */
  log?: (line: string) => void;
  exit?: (code: number) => void;
}

export interface Shutdown {
  /** True from the signal on: /readyz answers 503 so that no new traffic is routed here. */
  readonly draining: boolean;
  /** Runs the shutdown (what SIGTERM and SIGINT do); resolves once it has exited or timed out. */
  begin(signal: string): Promise<void>;
}

/**
 * SIGTERM (and SIGINT): readiness turns false first, then, after delayMs, the listeners stop
 * accepting and finish the requests they took, the job worker finishes its jobs, the database
 * closes, and the process exits 0. Everything within timeoutMs, or exit 1.
 */
export function handleShutdown(options: ShutdownOptions): Shutdown {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let draining = false;
  let running: Promise<void> | undefined;

  const run = async (signal: string) => {
    draining = true;
    log(`${signal}: draining (readiness false), closing in ${options.delayMs} ms`);
    const bound = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), options.timeoutMs).unref());
    const steps = (async () => {
      await new Promise((resolve) => setTimeout(resolve, options.delayMs));
      for (const step of options.steps) await step();
      await stopTracing();
      return 'done' as const;
    })();
    const outcome = await Promise.race([steps, bound]).catch((error: unknown) => {
      log(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
      return 'failed' as const;
    });
    if (outcome === 'timeout') log(`shutdown did not finish within ${options.timeoutMs} ms`);
    exit(outcome === 'done' ? 0 : 1);
  };

  const shutdown: Shutdown = {
    get draining() {
      return draining;
    },
    begin(signal) {
      running ??= run(signal);
      return running;
    },
  };
  process.on('SIGTERM', () => void shutdown.begin('SIGTERM'));
  process.on('SIGINT', () => void shutdown.begin('SIGINT'));
  return shutdown;
}
