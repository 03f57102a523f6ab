import { eq, sql } from 'drizzle-orm';
import { users, type Db } from '@mmw/db';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * One trial per person, not one per organization: the first trial a person starts sets when it
 * ends, and every later one (the Free trial of another organization they create, a plan's trial at
 * Checkout) ends then too. Returns that end; the first caller's proposal wins, in one statement, so
 * two organizations created at once share it as well.
 */
export async function personTrialEnd(tx: Db, userId: string, proposedEnd: Date): Promise<Date> {
  // The person's own row (row-level security on users): the transaction acts for them from here.
  await tx.execute(sql`select set_config('mmw.user_id', ${userId}, true)`);
  const [row] = await tx
    .update(users)
    .set({ trialEndsAt: sql`coalesce(${users.trialEndsAt}, ${proposedEnd.toISOString()}::timestamptz)` })
    .where(eq(users.id, userId))
    .returning({ ends: users.trialEndsAt });
  return row?.ends ?? proposedEnd;
}

/** Whole days left of a trial ending then, rounded up (Stripe counts trials in days), at most the plan's. */
function daysLeft(ends: Date, planTrialDays: number, now: Date): number | undefined {
  const left = Math.ceil((ends.getTime() - now.getTime()) / DAY_MS);
  return left >= 1 ? Math.min(left, planTrialDays) : undefined;
}

/** What checkoutTrialDays would give this person now, without starting their trial: for the page. */
export async function checkoutTrialDaysFor(tx: Db, userId: string, planTrialDays: number, now: Date): Promise<number | undefined> {
  if (planTrialDays <= 0) return undefined;
  const [row] = await tx.select({ ends: users.trialEndsAt }).from(users).where(eq(users.id, userId));
  return daysLeft(row?.ends ?? new Date(now.getTime() + planTrialDays * DAY_MS), planTrialDays, now);
}

/**
 * The whole days a plan's trial at Checkout gets for this person: what is left of their trial,
 * rounded up (Stripe counts trials in days), at most the plan's; undefined once it is over.
 */
export async function checkoutTrialDays(tx: Db, userId: string, planTrialDays: number, now: Date): Promise<number | undefined> {
  const ends = await personTrialEnd(tx, userId, new Date(now.getTime() + planTrialDays * DAY_MS));
  return daysLeft(ends, planTrialDays, now);
}
