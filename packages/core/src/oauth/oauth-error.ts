/**
 * An OAuth protocol error (RFC 6749 section 5.2, RFC 7591, RFC 8707): the error code a client
 * acts on, a description a person reads, and the HTTP status of the token endpoint's answer.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_client_metadata'
  | 'invalid_redirect_uri'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  /** Seconds to wait before asking again, sent as Retry-After (a throttled registration). */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    error: OAuthErrorCode,
    description: string,
    status = error === 'invalid_client' ? 401 : 400,
    options: { retryAfterSeconds?: number } = {},
  ) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export function isOAuthError(error: unknown): error is OAuthError {
  return error instanceof OAuthError;
}
