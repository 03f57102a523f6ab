import { z } from 'zod';
import type { RunStatement } from '@mmw/db';
import { isSubscriptionStatus } from '../billing/subscription-status.ts';
import type { MemorySession } from '../memory/memory-session.ts';
import { AppError } from '../errors.ts';
import { SESSION_AND_WINDOWS, windowsRow } from '../limits/call-limits.ts';
import { hashApiKey, hashesEqual, isWellFormedApiKey } from './api-key.ts';

const unauthorized = () => new AppError('unauthorized', 'invalid or revoked API key');

const timestamp = z.union([z.date(), z.string()]).transform((value) => new Date(value));

/** A row of mmw_key_session(): the key, its member, its project and its account's subscription. */
const keySessionRow = z.object({
  key_id: z.string(),
  account_id: z.string(),
  project_id: z.string(),
  user_id: z.string(),
  key_hash: z.string(),
  revoked_at: timestamp.nullable(),
  member_role: z.string().nullable(),
  project_active: z.boolean(),
  subscription_status: z.string().nullable(),
  subscription_plan: z.string().nullable(),
  subscription_period_end: timestamp.nullable(),
  subscription_updated_at: timestamp.nullable(),
  read_only: z.boolean(),
  calls_this_month: z.coerce.number(),
});

/**
 * Resolves a presented key to its caller; unknown, malformed, revoked and expired keys are all 'unauthorized'.
 * With countCallWith (the key limits of keyLimitsByPlan), the call is counted in its call-limit
 * windows by the same statement, for the memory service to decide on.
 * Every call of every tool starts here, so the reads (and the write of last_used_at, at most once a
 * minute per key) are one round trip: mmw_key_session() in the migrations runs them under row-level
 * security as the application role, key hash first, then the key's account. It is one prepared
 * statement on a connection of the pool, outside any transaction of ours: a stalled check holds
 * one connection, up to the statement and lock timeouts, never another tenant's check.
 */
export async function authenticateKey(
  query: RunStatement,
  presented: string,
  options: { countCallWith?: string } = {},
): Promise<MemorySession> {
  if (!isWellFormedApiKey(presented)) throw unauthorized();
  return sessionOfKeyHash(query, hashApiKey(presented), options);
}

/**
 * The session of the key with this hash, as authenticateKey gives it: for a presented key, and for
 * an OAuth grant (a key row whose own secret is never given out; its tokens name it).
 */
export async function sessionOfKeyHash(
  query: RunStatement,
  hash: string,
  options: { countCallWith?: string } = {},
): Promise<MemorySession> {
  const { rows } =
    options.countCallWith === undefined
      ? await query({ name: 'mmw_key_session', text: 'select * from mmw_key_session($1)', values: [hash] })
      : await query({
          name: 'mmw_key_session_windows',
          text: SESSION_AND_WINDOWS,
          values: [hash, options.countCallWith],
        });
  const found = rows[0] === undefined ? undefined : keySessionRow.parse(rows[0]);
  if (
    !found ||
    found.revoked_at !== null ||
    !hashesEqual(found.key_hash, hash) ||
    found.member_role === null
  ) {
    throw unauthorized();
  }
  const status = found.subscription_status;
  const windows = options.countCallWith === undefined ? undefined : windowsRow.parse(rows[0]);
  return {
    ...(windows === undefined ? {} : { windows }),
    caller: {
      accountId: found.account_id,
      projectId: found.project_id,
      userId: found.user_id,
      keyId: found.key_id,
      source: 'agent',
    },
    projectActive: found.project_active,
    readOnly: found.read_only,
    callsThisMonth: found.calls_this_month,
    plan: found.subscription_plan ?? 'self-hosted',
    subscription:
      status !== null && isSubscriptionStatus(status) && found.subscription_updated_at !== null
        ? {
            status,
            currentPeriodEnd: found.subscription_period_end,
            updatedAt: found.subscription_updated_at,
          }
        : undefined,
  };
}
