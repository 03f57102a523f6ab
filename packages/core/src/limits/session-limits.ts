import type { Plan } from '../billing/plans.ts';
import { isAppError } from '../errors.ts';
import type { MemorySession } from '../memory/memory-session.ts';
import type { CallLimits, LimitState } from './call-limits.ts';

/**
 * Decides the call limits of one call of a session: on the windows counted with its key when there
 * are some (they stand for this one call, so a second tool call of the request counts anew), else
 * counted now. The transport is told the state; a refusal as nothing left until the window resets.
 */
export async function enforceCallLimits(
  limits: CallLimits,
  session: MemorySession,
  plan: Plan,
): Promise<void> {
  const windows = session.windows;
  session.windows = undefined;
  let state: LimitState;
  try {
    state =
      windows === undefined
        ? await limits.count(session.caller, plan)
        : limits.decide(session.caller, plan, windows);
  } catch (error) {
    if (isAppError(error) && error.retryAfterSeconds !== undefined) {
      session.onLimits?.({
        limit: 0,
        remaining: 0,
        resetSeconds: error.retryAfterSeconds,
        retryAfterSeconds: error.retryAfterSeconds,
      });
    }
    throw error;
  }
  session.onLimits?.(state);
}
