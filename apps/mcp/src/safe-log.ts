/**
 * What of an unexpected error may be logged: its kind and database code, never its message,
 * which may quote the query's parameters (a record's content).
 */
export function describeError(error: unknown): { type: string; code?: string } {
  if (!(error instanceof Error)) return { type: typeof error };
  const cause = (error as { cause?: unknown }).cause;
  const code = (cause as { code?: unknown } | undefined)?.code ?? (error as { code?: unknown }).code;
  return { type: error.constructor.name, ...(typeof code === 'string' ? { code } : {}) };
}
