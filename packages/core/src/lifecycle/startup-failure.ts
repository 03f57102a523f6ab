/** The cause of a failure in one line: pg's AggregateError (every address refused) has no message of its own. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${describe(error.cause)})` : '';
    return `${error.message || (error as { code?: string }).code || error.name}${cause}`;
  }
  return String(error);
}

/** How long closing what was opened may take before a failed start exits anyway. */
const CLOSE_BOUND_MS = 5_000;

export interface Startup {
  /** Closes `resource` (the database, the job worker) if the start fails after this point. */
  closeOnFailure(close: () => unknown): void;
  /** The process is up: failures from here on are no longer start failures. */
  started(): void;
}

/**
 * Until the process is up, a failure (bad configuration, a database that does not answer, a port
 * in use) stops it with one line naming the cause and exit code 1, instead of a stack trace, after
 * closing what was opened so far, last opened first (an embedded database left open would not open
 * again). Call first; call `started` once the process is up.
 */
export function failStartupInOneLine(name: string): Startup {
  const opened: Array<() => unknown> = [];
  let failed = false;
  const onFailure = (error: unknown) => {
    if (failed) return; // a second failure while closing: the first one is the cause
    failed = true;
    process.stderr.write(`${name} could not start: ${describe(error).replace(/\s+/g, ' ')}\n`);
    const bound = new Promise((resolve) => setTimeout(resolve, CLOSE_BOUND_MS).unref());
    const closeAll = (async () => {
      for (const close of opened.reverse()) await Promise.resolve(close()).catch(() => undefined);
    })();
    void Promise.race([closeAll, bound]).finally(() => process.exit(1));
  };
  process.on('uncaughtException', onFailure);
  return {
    closeOnFailure: (close) => opened.push(close),
    started: () => process.off('uncaughtException', onFailure),
  };
}
