import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import {
  accountDeletions,
  accounts,
  memberships,
  recoveryCodes,
  sessions,
  subscriptions,
  twoFactorCredentials,
  users,
  withTenant,
  type Db,
} from '@mmw/db';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Member } from '../orgs/member.ts';
import { eraseJobsOf } from './erase-jobs.ts';

export const deleteAccountInputSchema = z.object({
  /** The account's name typed again: a deletion cannot be undone. */
  confirmName: z.string().max(200),
});

const RUNNING_STRIPE_STATUSES = new Set(['active', 'trialing', 'past_due']);

/**
 * An owner deletes the whole account for good: its projects, workspaces, records and relations,
 * keys, memberships, invitations, visibility rules, handovers, audit log, idempotency answers, usage,
 * subscription row and Stripe event rows (each references the account with ON DELETE CASCADE), and
 * the job payloads that name it. Kept, outside the tenant: the account's id, kind, who deleted it
 * and when (account_deletions), so that a deletion can be told apart from data loss.
 *
 * A personal account is the owner's own MMW account: deleting it also closes the user's sign-in
 * (email and name replaced, password, sessions and two-factor removed); the user must have left or
 * deleted their organizations first. The user row stays, anonymous, because records they wrote in
 * organizations they left still name it as their author.
 */
export async function deleteAccount(db: Db, member: Member, input: { confirmName: string }): Promise<{ deleted: true }> {
  if (member.role !== 'owner') throw new AppError('forbidden', 'only an owner may delete the account');
  await withTenant(db, member.accountId, async (tx) => {
    // The user, for their own memberships, sessions and two-factor rows (mmw_user() policies).
    await tx.execute(sql`select set_config('mmw.user_id', ${member.userId}, true)`);
    const [account] = await tx
      .select({ name: accounts.name, kind: accounts.kind })
      .from(accounts)
      .where(eq(accounts.id, member.accountId))
      .for('update');
    if (!account) throw new AppError('not_found', 'account not found');
    if (input.confirmName.trim() !== account.name) {
      throw new AppError('invalid_input', "type the account's name to confirm the deletion");
    }
    const [subscription] = await tx
      .select({ stripeSubscriptionId: subscriptions.stripeSubscriptionId, status: subscriptions.status, cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, member.accountId));
    if (subscription?.stripeSubscriptionId != null && RUNNING_STRIPE_STATUSES.has(subscription.status) && !subscription.cancelAtPeriodEnd) {
      throw new AppError('conflict', 'cancel the subscription under Billing before deleting the account');
    }
    if (account.kind === 'personal') {
      const [other] = await tx
        .select({ accountId: memberships.accountId })
        .from(memberships)
        .where(and(eq(memberships.userId, member.userId), ne(memberships.accountId, member.accountId), isNull(memberships.removedAt)))
        .limit(1);
      if (other) throw new AppError('conflict', 'leave or delete your organizations before deleting your personal account');
    }
    await tx.insert(accountDeletions).values({ accountId: member.accountId, kind: account.kind, deletedBy: member.userId });
    await tx.delete(accounts).where(eq(accounts.id, member.accountId));
    await eraseJobsOf(tx, member.accountId);
    if (account.kind === 'personal') await closeSignIn(tx, member.userId);
  });
  return { deleted: true };
}

/** The user's sign-in ends for good: no email, name, password, session or second factor is kept. */
async function closeSignIn(tx: Db, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ email: `deleted-${userId}@deleted.invalid`, name: null, passwordHash: null, twoFactorEnabledAt: null })
    .where(eq(users.id, userId));
  await tx.delete(sessions).where(eq(sessions.userId, userId));
  await tx.delete(twoFactorCredentials).where(eq(twoFactorCredentials.userId, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}
