/**
 * Every failure a user can see is an AppError with a code; one table maps the code to its
 * HTTP status, its tRPC code and the JSON-RPC code of a protocol-level MCP failure (a bad key, an
 * overload); a tool's own failures are isError results with the message. The message is the text
 * a user reads (the spec's exact text where the spec has one) and never carries a secret, a stack
 * or a payload.
 */
export const errorTable = {
  invalid_input: { http: 400, trpc: 'BAD_REQUEST', jsonRpc: -32602 },
  unauthorized: { http: 401, trpc: 'UNAUTHORIZED', jsonRpc: -32001 },
  subscription_required: { http: 402, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  /** The plan's monthly call allowance is spent: writes wait for the next month. */
  call_allowance_spent: { http: 402, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  forbidden: { http: 403, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  /** An OAuth token without the scope a tool needs (RFC 6750 insufficient_scope). */
  insufficient_scope: { http: 403, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  workspace_forbidden: { http: 403, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  project_unavailable: { http: 403, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  record_limit: { http: 403, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  session_message_limit: { http: 403, trpc: 'FORBIDDEN', jsonRpc: -32000 },
  not_found: { http: 404, trpc: 'NOT_FOUND', jsonRpc: -32000 },
  workspace_inactive: { http: 404, trpc: 'NOT_FOUND', jsonRpc: -32000 },
  conflict: { http: 409, trpc: 'CONFLICT', jsonRpc: -32000 },
  idempotency_conflict: { http: 409, trpc: 'CONFLICT', jsonRpc: -32000 },
  guard_rejected: { http: 422, trpc: 'UNPROCESSABLE_CONTENT', jsonRpc: -32000 },
  rate_limited: { http: 429, trpc: 'TOO_MANY_REQUESTS', jsonRpc: -32000 },
  project_rate_limited: { http: 429, trpc: 'TOO_MANY_REQUESTS', jsonRpc: -32000 },
  unavailable: { http: 503, trpc: 'INTERNAL_SERVER_ERROR', jsonRpc: -32603 },
  /** Too much waiting (no connection in time, a statement or lock timeout): try again shortly. */
  overloaded: { http: 503, trpc: 'SERVICE_UNAVAILABLE', jsonRpc: -32603 },
} as const;

export type ErrorCode = keyof typeof errorTable;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Seconds until a rate-limited or overloaded caller may try again. */
  readonly retryAfterSeconds: number | undefined;
  /** The OAuth scope an insufficient_scope failure lacks. */
  readonly scope: string | undefined;

  constructor(code: ErrorCode, message: string, options: { retryAfterSeconds?: number; scope?: string } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.scope = options.scope;
  }

  get httpStatus(): number {
    return errorTable[this.code].http;
  }

  get jsonRpcCode(): number {
    return errorTable[this.code].jsonRpc;
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
