/**
 * Every failure a user can see is an AppError with a code; one table maps the code to its
 * HTTP status and tRPC code. The message is the text a user reads (the spec's exact text where
 * the spec has one) and never carries a secret, a stack or a payload.
 */
export const errorTable = {
  invalid_input: { http: 400, trpc: 'BAD_REQUEST' },
  unauthorized: { http: 401, trpc: 'UNAUTHORIZED' },
  subscription_required: { http: 402, trpc: 'FORBIDDEN' },
  forbidden: { http: 403, trpc: 'FORBIDDEN' },
  workspace_forbidden: { http: 403, trpc: 'FORBIDDEN' },
  project_unavailable: { http: 403, trpc: 'FORBIDDEN' },
  record_limit: { http: 403, trpc: 'FORBIDDEN' },
  not_found: { http: 404, trpc: 'NOT_FOUND' },
  workspace_inactive: { http: 404, trpc: 'NOT_FOUND' },
  conflict: { http: 409, trpc: 'CONFLICT' },
  idempotency_conflict: { http: 409, trpc: 'CONFLICT' },
  guard_rejected: { http: 422, trpc: 'UNPROCESSABLE_CONTENT' },
  rate_limited: { http: 429, trpc: 'TOO_MANY_REQUESTS' },
  project_rate_limited: { http: 429, trpc: 'TOO_MANY_REQUESTS' },
  unavailable: { http: 503, trpc: 'INTERNAL_SERVER_ERROR' },
  /** A bounded pool or queue is full: answered 503 with Retry-After. */
  overloaded: { http: 503, trpc: 'SERVICE_UNAVAILABLE' },
} as const;

export type ErrorCode = keyof typeof errorTable;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Seconds until a rate-limited caller may try again. */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get httpStatus(): number {
    return errorTable[this.code].http;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** The spec's exact texts. */
export const messages = {
  workspaceInactive: (name: string) => `workspace '${name}' is not active`,
  workspaceForbidden: '403 Forbidden: workspace access denied for project',
  projectUnavailable: 'bound project is missing, inactive, or outside tenant',
  keyRateLimited: 'MCP rate limit exceeded',
  projectRateLimited: 'project call limit exceeded',
  guardRejected: (reason: string) => `Memory rejected by Security Guard: ${reason}`,
  guardTimedOut: 'Memory rejected by Security Guard: the record could not be checked in time',
  guardOverloaded: 'the Memory Guard is busy; try again shortly',
  notice: (text: string) => `[MMW Notice]: ${text}`,
  idempotencyConflict:
    '409 Conflict: this X-Idempotency-Key was already used with a different request; use a new key for a new request',
} as const;
