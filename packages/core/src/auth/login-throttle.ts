import { inArray, sql } from 'drizzle-orm';
import { loginAttempts, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import { hashSecretToken } from './session-token.ts';

/**
 * Failed sign-ins are counted in PostgreSQL, per email and per client address, in 15-minute
 * windows; a bucket that reaches its limit is locked for 15 minutes. Every replica sees the same
 * counts, and a restart forgets nothing.
 */
export const LOGIN_WINDOW_SECONDS = 15 * 60;
export const LOGIN_LOCK_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 50;

export interface LoginBuckets {
  email: string;
  address: string;
}

/** Buckets are hashes: the table holds no email or address. */
export function loginBuckets(email: string, address: string): LoginBuckets {
  return { email: `email:${hashSecretToken(email)}`, address: `address:${hashSecretToken(address)}` };
}

export async function assertLoginAllowed(db: Db, buckets: LoginBuckets, now = new Date()): Promise<void> {
  const rows = await db
    .select({ lockedUntil: loginAttempts.lockedUntil })
    .from(loginAttempts)
    .where(inArray(loginAttempts.bucket, [buckets.email, buckets.address]));
  const until = Math.max(0, ...rows.map((row) => row.lockedUntil?.getTime() ?? 0));
  if (until > now.getTime()) {
    throw new AppError('rate_limited', 'too many failed sign-ins; try again later', {
      retryAfterSeconds: Math.ceil((until - now.getTime()) / 1000),
    });
  }
}

async function countFailure(db: Db, bucket: string, limit: number, now: Date): Promise<void> {
  const windowFloor = new Date(now.getTime() - LOGIN_WINDOW_SECONDS * 1000);
  const lockUntil = new Date(now.getTime() + LOGIN_LOCK_SECONDS * 1000);
  // One atomic statement: concurrent failures on several replicas all count.
  await db.execute(sql`
    insert into login_attempts (bucket, failures, window_start, locked_until)
    values (${bucket}, 1, ${now.toISOString()}::timestamptz, case when 1 >= ${limit}::int then ${lockUntil.toISOString()}::timestamptz end)
    on conflict (bucket) do update set
      failures = case when login_attempts.window_start < ${windowFloor.toISOString()}::timestamptz then 1 else login_attempts.failures + 1 end,
      window_start = case when login_attempts.window_start < ${windowFloor.toISOString()}::timestamptz then ${now.toISOString()}::timestamptz else login_attempts.window_start end,
      locked_until = case
        when (case when login_attempts.window_start < ${windowFloor.toISOString()}::timestamptz then 1 else login_attempts.failures + 1 end) >= ${limit}::int
        then ${lockUntil.toISOString()}::timestamptz else login_attempts.locked_until end`);
}

export async function recordLoginFailure(db: Db, buckets: LoginBuckets, now = new Date()): Promise<void> {
  await countFailure(db, buckets.email, MAX_FAILURES_PER_EMAIL, now);
  await countFailure(db, buckets.address, MAX_FAILURES_PER_ADDRESS, now);
}

/** A successful sign-in clears the email's count; the address keeps its own. */
export async function clearLoginFailures(db: Db, buckets: LoginBuckets): Promise<void> {
  await db.delete(loginAttempts).where(inArray(loginAttempts.bucket, [buckets.email]));
}
