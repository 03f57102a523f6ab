import { z } from 'zod';
import { executeSqlOn, type Db } from '@mmw/db';
import { AppError, messages } from '../errors.ts';
import { PLAN_IDS, type Plan, type PlanId } from '../billing/plans.ts';
import type { Caller } from '../caller.ts';
import { createCallCounter, type CallCounter } from '../usage/call-count.ts';
import { rateLimitRefusals } from '../metrics/metrics.ts';

/** The state of a caller's call limits after a call was counted, for the transport's headers. */
export interface LimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  retryAfterSeconds: number | undefined;
}

const WINDOW_SECONDS = 60;

/**
 * Tool calls per key and per project per minute, counted in PostgreSQL so every replica shares the
 * counters; and the account's calls this month.
 */
export interface CallLimits {
  /** Counts one call; throws the spec's error when a limit is exceeded. */
  count(caller: Caller, plan: Plan): Promise<LimitState>;
  /** The same, for a call whose windows were counted with its key (see SESSION_AND_WINDOWS). */
  decide(caller: Caller, plan: Plan, windows: CallWindows): LimitState;
  /** Writes the month's call counts still held in memory. */
  flush(): Promise<void>;
}

/** One fixed window of `rate_limits`: counts from its first call for WINDOW_SECONDS, then starts over. */
const windowUpsert = (key: string, onlyIf = 'true', from = '') => `
  insert into rate_limits as r (key, points, expire)
  select ${key}, 1, now() + make_interval(secs => ${WINDOW_SECONDS}) ${from === '' ? '' : `from ${from}`} where ${onlyIf}
  on conflict (key) do update set
    points = case when r.expire <= now() then 1 else r.points + 1 end,
    expire = case when r.expire <= now() then now() + make_interval(secs => ${WINDOW_SECONDS}) else r.expire end
  returning points, greatest(0, extract(epoch from r.expire - clock_timestamp()) * 1000)::float8 as ms`;

/**
 * Both windows of a call in one statement (the same fixed windows and keys as rate-limiter-flexible's
 * store, which took one statement each; see docs/decisions/0007-remember-path.md). The project's
 * window counts the call only when the key's window let it through, as before.
 */
const KEY_AND_PROJECT = `
  with k as (${windowUpsert('$1')}),
       p as (${windowUpsert('$2', '(select points from k) <= $3')})
  select k.points as key_points, k.ms as key_ms, p.points as project_points, p.ms as project_ms
    from k left join p on true`;
const PROJECT_ONLY = `
  with p as (${windowUpsert('$1')})
  select null::int as key_points, null::float8 as key_ms, p.points as project_points, p.ms as project_ms from p`;

/**
 * Key authentication and the windows of the call in one statement, so a tool call pays one round
 * trip for both: the row of mmw_key_session($1), and, for a key that may act (not revoked, of a
 * member, its project active), the same two windows as KEY_AND_PROJECT, with the key's limit looked
 * up by its account's plan in $2 (plan id to calls per minute; an unknown plan is self-hosted).
 * Whether the call may go on is still decided in TypeScript: the project, the subscription, then
 * the windows (decide()).
 */
export const SESSION_AND_WINDOWS = `
  with s as (select * from mmw_key_session($1)),
       l as (select s.key_id, s.project_id,
                    coalesce(($2::jsonb ->> s.subscription_plan)::int, ($2::jsonb ->> 'self-hosted')::int) as key_limit
               from s where s.revoked_at is null and s.member_role is not null and s.project_active),
       k as (${windowUpsert(`'key:' || l.key_id`, 'true', 'l')}),
       p as (${windowUpsert(`'project:' || l.project_id`, '(select points from k) <= l.key_limit', 'l')})
  select s.*, k.points as key_points, k.ms as key_ms, p.points as project_points, p.ms as project_ms
    from s left join k on true left join p on true`;

/** The calls per minute of each plan's keys, as SESSION_AND_WINDOWS takes them. */
export function keyLimitsByPlan(planOf: (id: PlanId) => Plan): string {
  return JSON.stringify(Object.fromEntries(PLAN_IDS.map((id) => [id, planOf(id).keyCallsPerMinute])));
}

export const windowsRow = z.object({
  key_points: z.coerce.number().nullable(),
  key_ms: z.coerce.number().nullable(),
  project_points: z.coerce.number().nullable(),
  project_ms: z.coerce.number().nullable(),
});

export type CallWindows = z.infer<typeof windowsRow>;

function refused(kind: 'key' | 'project', ms: number): AppError {
  rateLimitRefusals.inc({ limit: kind });
  const retryAfterSeconds = Math.max(1, Math.ceil(ms / 1000));
  const message = kind === 'key' ? messages.keyRateLimited : messages.projectRateLimited;
  return new AppError(kind === 'key' ? 'rate_limited' : 'project_rate_limited', message, {
    retryAfterSeconds,
  });
}

export function createCallLimits(db: Db, counter: CallCounter = createCallCounter(db)): CallLimits {
  const run = executeSqlOn(db);

  async function windows(caller: Caller, plan: Plan) {
    try {
      const { rows } =
        caller.keyId === null
          ? await run(PROJECT_ONLY, [`project:${caller.projectId}`])
          : await run(KEY_AND_PROJECT, [
              `key:${caller.keyId}`,
              `project:${caller.projectId}`,
              plan.keyCallsPerMinute,
            ]);
      return windowsRow.parse(rows[0]);
    } catch {
      throw new AppError('unavailable', 'call limits are unavailable, try again');
    }
  }

  function decide(caller: Caller, plan: Plan, found: CallWindows): LimitState {
    const key =
      found.key_points === null
        ? undefined
        : { points: found.key_points, ms: found.key_ms ?? 0, limit: plan.keyCallsPerMinute };
    if (key && key.points > key.limit) throw refused('key', key.ms);
    if (found.project_points === null)
      throw new AppError('unavailable', 'call limits are unavailable, try again');
    const project = {
      points: found.project_points,
      ms: found.project_ms ?? 0,
      limit: plan.projectCallsPerMinute,
    };
    if (project.points > project.limit) throw refused('project', project.ms);
    // A call that passed the limits counts toward the month's usage shown in the dashboard.
    counter.count(caller.accountId);
    const remaining = (window: { points: number; limit: number }) =>
      Math.max(window.limit - window.points, 0);
    const tightest = key !== undefined && remaining(key) <= remaining(project) ? key : project;
    return {
      limit: tightest.limit,
      remaining: remaining(tightest),
      resetSeconds: Math.ceil(tightest.ms / 1000),
      retryAfterSeconds: undefined,
    };
  }

  return {
    flush: () => counter.flush(),
    decide,
    async count(caller, plan) {
      return decide(caller, plan, await windows(caller, plan));
    },
  };
}
