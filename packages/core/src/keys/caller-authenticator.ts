import type { Database } from '@mmw/db';
import { planById } from '../billing/plans.ts';
import type { Config } from '../config.ts';
import { rethrowAsAppError } from '../database-failure.ts';
import { keyLimitsByPlan } from '../limits/call-limits.ts';
import type { MemorySession } from '../memory/memory-session.ts';
import { authenticateAccessToken } from '../oauth/access-token.ts';
import { authenticateKey } from './authenticate-key.ts';

/** Who is calling the memory tools: what a transport asks before it calls the memory service. */
export interface CallerAuthenticator {
  /**
   * The session of a presented key (AppError 'unauthorized' for a bad one). For a request that is
   * one tool call, the call is counted in its call-limit windows by the same statement: one round
   * trip for both (the tool's own checks then decide on those windows).
   */
  authenticate(presentedKey: string, options?: { toolCall?: boolean }): Promise<MemorySession>;
  /**
   * The session of an OAuth access token issued for `resource` (the MCP endpoint), with its scopes;
   * 'unauthorized' for an unknown, expired or revoked one, or one for another resource.
   */
  authenticateAccessToken(token: string, options: { resource: string; toolCall?: boolean }): Promise<MemorySession>;
}

export function createCallerAuthenticator(deps: {
  database: Database;
  config: Config;
  /** Count tool calls in the call-limit windows (off only where the benchmark turns the limits off). */
  countCalls?: boolean;
}): CallerAuthenticator {
  const { database, config } = deps;
  const countCalls = deps.countCalls ?? true;
  const keyLimits = keyLimitsByPlan((id) => planById(config, id));
  return {
    authenticate: (presentedKey, options = {}) =>
      authenticateKey(
        database.query,
        presentedKey,
        countCalls && options.toolCall === true ? { countCallWith: keyLimits } : {},
      ).catch(rethrowAsAppError),
    authenticateAccessToken: (token, options) =>
      authenticateAccessToken(database, token, {
        resource: options.resource,
        ...(countCalls && options.toolCall === true ? { countCallWith: keyLimits } : {}),
      }).catch(rethrowAsAppError),
  };
}
