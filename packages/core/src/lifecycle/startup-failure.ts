/** The cause of a failure in one line: pg's AggregateError (every address refused) has no message of its own. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? ` (${describe(error.cause)})` : '';
    return `${error.message || (error as { code?: string }).code || error.name}${cause}`;
  }
  return String(error);
}

/**
 * Until the process is up, a failure (bad configuration, a database that does not answer) stops it
 * with one line naming the cause and exit code 1, instead of a stack trace. Call first; call the
 * function it returns once the process is up.
 */
export function failStartupInOneLine(name: string): () => void {
  const onFailure = (error: unknown) => {
    process.stderr.write(`${name} could not start: ${describe(error).replace(/\s+/g, ' ')}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', onFailure);
  return () => process.off('uncaughtException', onFailure);
}
