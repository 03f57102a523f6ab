import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimits, type Db } from '@mmw/db';
import { AppError, messages } from '../errors.ts';
import type { Plan } from '../billing/plans.ts';
import type { LimitState } from '../memory/memory-session.ts';
import type { Caller } from '../caller.ts';
import { createCallCounter, type CallCounter } from '../usage/call-count.ts';

const WINDOW_SECONDS = 60;

/**
 * Tool calls per key and per project per minute, counted in PostgreSQL through rate-limiter-flexible's
 * drizzle store, so every replica shares the counters; and the account's calls this month.
 */
export interface CallLimits {
  /** Counts one call; throws the spec's error when a limit is exceeded. */
  count(caller: Caller, plan: Plan): Promise<LimitState>;
  /** Writes the month's call counts still held in memory. */
  flush(): Promise<void>;
}

export function createCallLimits(db: Db, counter: CallCounter = createCallCounter(db)): CallLimits {
  const limiters = new Map<string, RateLimiterDrizzle>();
  const limiter = (kind: 'key' | 'project', points: number) => {
    const id = `${kind}:${points}`;
    let found = limiters.get(id);
    if (!found) {
      found = new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: kind,
      });
      limiters.set(id, found);
    }
    return found;
  };

  const consume = async (kind: 'key' | 'project', id: string, points: number): Promise<RateLimiterRes> => {
    try {
      return await limiter(kind, points).consume(id);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        const retryAfterSeconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        const message = kind === 'key' ? messages.keyRateLimited : messages.projectRateLimited;
        throw new AppError(kind === 'key' ? 'rate_limited' : 'project_rate_limited', message, { retryAfterSeconds });
      }
      throw new AppError('unavailable', 'call limits are unavailable, try again');
    }
  };

  return {
    flush: () => counter.flush(),
    async count(caller, plan) {
      const keyState = caller.keyId === null ? undefined : await consume('key', caller.keyId, plan.keyCallsPerMinute);
      const projectState = await consume('project', caller.projectId, plan.projectCallsPerMinute);
      // A call that passed the limits counts toward the month's usage shown in the dashboard.
      counter.count(caller.accountId);
      const tightest =
        keyState !== undefined && keyState.remainingPoints <= projectState.remainingPoints ? keyState : projectState;
      return {
        limit: tightest === keyState ? plan.keyCallsPerMinute : plan.projectCallsPerMinute,
        remaining: tightest.remainingPoints,
        resetSeconds: Math.ceil(tightest.msBeforeNext / 1000),
        retryAfterSeconds: undefined,
      };
    },
  };
}
