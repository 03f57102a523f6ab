import { eq, sql } from 'drizzle-orm';
import { loginAttempts, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import { hashSecretToken } from './session-token.ts';

/**
 * Attempts that check a password (sign-in, the current password of a password change) and sign-ups
 * are counted in PostgreSQL, per opaque bucket, in 15-minute windows. An attempt is reserved in one
 * atomic statement before any password is verified, so parallel guesses cannot pass the limit. Past
 * the limit a bucket is not locked: the attempt that reaches it starts a wait of 15 s, and each
 * further one waits twice as long as the one before (30 s, 1 min, … at most 15 minutes). Every replica sees the same counts.
 */
export const ATTEMPT_WINDOW_SECONDS = 15 * 60;
const MAX_DELAY_SECONDS = 15 * 60;
const FIRST_DELAY_SECONDS = 15;

export interface AttemptBucket {
  bucket: string;
  limit: number;
}

/** Per email and address together: a guesser elsewhere slows only their own guesses. */
export const PER_EMAIL_AND_ADDRESS = 5;
/** Per email from anywhere: many addresses guessing one account slow down, nobody is locked out. */
export const PER_EMAIL = 30;
/** Per client address, over every email. */
export const PER_ADDRESS = 50;
/** Sign-ups per client address. */
export const SIGN_UPS_PER_ADDRESS = 5;

const hashed = (kind: string, ...parts: string[]) => `${kind}:${hashSecretToken(parts.join('\u0000'))}`;

/** Buckets are hashes: the table holds no email or address. */
export function loginBuckets(email: string, address: string): AttemptBucket[] {
  return [
    { bucket: hashed('email-address', email, address), limit: PER_EMAIL_AND_ADDRESS },
    { bucket: hashed('email', email), limit: PER_EMAIL },
    { bucket: hashed('address', address), limit: PER_ADDRESS },
  ];
}

export function signUpBuckets(address: string, limit = SIGN_UPS_PER_ADDRESS): AttemptBucket[] {
  return [{ bucket: hashed('sign-up', address), limit }];
}

/** Dynamic client registrations (RFC 7591) per client address, counted like sign-ups. */
export function clientRegistrationBuckets(address: string, limit: number): AttemptBucket[] {
  return [{ bucket: hashed('client-registration', address), limit }];
}

/** A password check of a signed-in user (changing the password). */
export function passwordCheckBuckets(userId: string): AttemptBucket[] {
  return [{ bucket: hashed('password-check', userId), limit: PER_EMAIL_AND_ADDRESS }];
}

/**
 * Reserves one attempt in a bucket: true when it may go on. One INSERT … ON CONFLICT DO UPDATE …
 * WHERE: the row is locked while its count is read and raised, and a refused attempt changes nothing.
 */
async function reserve(db: Db, { bucket, limit }: AttemptBucket): Promise<boolean> {
  const expired = sql`${loginAttempts.windowStart} < now() - make_interval(secs => ${ATTEMPT_WINDOW_SECONDS})`;
  const delay = sql`least(${MAX_DELAY_SECONDS}::float8, ${FIRST_DELAY_SECONDS}::float8 * power(2, least(${loginAttempts.failures} + 1 - ${limit}::int, 20)))`;
  const rows = await db
    .insert(loginAttempts)
    .values({ bucket, failures: 1, windowStart: sql`now()`, lockedUntil: null })
    .onConflictDoUpdate({
      target: loginAttempts.bucket,
      set: {
        failures: sql`case when ${expired} then 1 else ${loginAttempts.failures} + 1 end`,
        windowStart: sql`case when ${expired} then now() else ${loginAttempts.windowStart} end`,
        lockedUntil: sql`case when ${expired} then null
          when ${loginAttempts.failures} + 1 >= ${limit}::int then now() + make_interval(secs => ${delay})
          else ${loginAttempts.lockedUntil} end`,
      },
      setWhere: sql`${expired} or ${loginAttempts.failures} + 1 < ${limit}::int
        or ${loginAttempts.lockedUntil} is null or ${loginAttempts.lockedUntil} <= now()`,
    })
    .returning({ failures: loginAttempts.failures });
  return rows.length > 0;
}

async function retryAfter(db: Db, buckets: AttemptBucket[]): Promise<number> {
  let seconds = 1;
  for (const { bucket } of buckets) {
    const [row] = await db.select({ until: loginAttempts.lockedUntil }).from(loginAttempts).where(eq(loginAttempts.bucket, bucket));
    if (row?.until) seconds = Math.max(seconds, Math.ceil((row.until.getTime() - Date.now()) / 1000));
  }
  return seconds;
}

/** Reserves an attempt in every bucket, or throws 'rate_limited' with the time to wait. */
export async function reserveAttempt(db: Db, buckets: AttemptBucket[], message: string): Promise<void> {
  for (const bucket of buckets) {
    if (!(await reserve(db, bucket))) {
      throw new AppError('rate_limited', message, { retryAfterSeconds: await retryAfter(db, buckets) });
    }
  }
}

/** A success forgets the attempts of its first bucket (the most specific one); the others keep counting. */
export async function forgetAttempts(db: Db, buckets: AttemptBucket[]): Promise<void> {
  const [first] = buckets;
  if (first) await db.delete(loginAttempts).where(eq(loginAttempts.bucket, first.bucket));
}
