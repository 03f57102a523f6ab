import { lt } from 'drizzle-orm';
import { oauthCodes, oauthTokens, withSystem, type Db } from '@mmw/db';
import { z } from 'zod';
import type { JobDefinition, JobQueue } from '../jobs/job-queue.ts';
import { scheduledRunId } from '../jobs/scheduled-run-id.ts';

export const OAUTH_SWEEP_QUEUE = 'oauth-sweep';

const HOUR_MS = 60 * 60 * 1000;
/**
 * A used code stays this long past its expiry: a replay of it within that time still revokes what it
 * granted (token-endpoint.ts). An expired token can no longer be used or reused, so it goes at once.
 */
const CODE_KEPT_MS = 24 * HOUR_MS;

/** Deletes the authorization codes and the access and refresh tokens that can no longer be used. */
export async function sweepExpiredOAuth(db: Db, now = new Date()): Promise<{ codes: number; tokens: number }> {
  return withSystem(db, async (tx) => {
    const codes = await tx
      .delete(oauthCodes)
      .where(lt(oauthCodes.expiresAt, new Date(now.getTime() - CODE_KEPT_MS)))
      .returning({ codeHash: oauthCodes.codeHash });
    const tokens = await tx.delete(oauthTokens).where(lt(oauthTokens.expiresAt, now)).returning({ tokenHash: oauthTokens.tokenHash });
    return { codes: codes.length, tokens: tokens.length };
  });
}

const sweepPayload = z.object({ hour: z.iso.datetime() });
type SweepPayload = z.infer<typeof sweepPayload>;

/** The start of the hour after the given moment. */
export function nextSweepAt(after: Date): Date {
  return new Date((Math.floor(after.getTime() / HOUR_MS) + 1) * HOUR_MS);
}

export interface OAuthSweepJob {
  job: JobDefinition<SweepPayload>;
  /** Schedules the next hourly sweep (idempotent). */
  schedule(after: Date): Promise<void>;
}

/** The hourly sweep of expired codes and tokens: each run deletes, then schedules the next hour's. */
export function oauthSweepJob(deps: { db: Db; jobs: JobQueue; now?: () => Date }): OAuthSweepJob {
  const now = deps.now ?? (() => new Date());
  const schedule = async (after: Date) => {
    const at = nextSweepAt(after);
    const hour = at.toISOString();
    await deps.jobs.enqueue(deps.db, job, { hour }, { id: scheduledRunId(OAUTH_SWEEP_QUEUE, hour), startAfter: at });
  };
  const job: JobDefinition<SweepPayload> = {
    name: OAUTH_SWEEP_QUEUE,
    payload: sweepPayload,
    async handle({ hour }) {
      const at = now();
      await sweepExpiredOAuth(deps.db, at);
      // After a long stop the worker runs a missed hour late: the next one follows now, not that hour.
      await schedule(new Date(Math.max(new Date(hour).getTime(), at.getTime())));
    },
  };
  return { job, schedule };
}
