import type { ServerResponse } from 'node:http';
import type { LimitState } from '@mmw/core';

/**
 * The call limits as headers (IETF RateLimit fields, and Retry-After when refused). Set before the
 * transport writes its answer, which it does once the tool has run.
 */
export function setLimitHeaders(response: ServerResponse, state: LimitState): void {
  if (response.headersSent) return;
  response.setHeader('RateLimit-Policy', `${state.limit};w=60`);
  response.setHeader(
    'RateLimit',
    `limit=${state.limit}, remaining=${state.remaining}, reset=${state.resetSeconds}`,
  );
  if (state.retryAfterSeconds !== undefined)
    response.setHeader('Retry-After', String(state.retryAfterSeconds));
}
