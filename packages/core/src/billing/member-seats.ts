import { and, count, eq, gt, isNull } from 'drizzle-orm';
import { invitations, memberships, subscriptions, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import { memberLimitOf } from './plans.ts';

/**
 * Throws when the account's plan has no seat for one more member. Runs in the tenant's transaction
 * of the invitation or the acceptance, with the subscription row locked, so concurrent acceptances
 * are counted one at a time. Pending invitations hold a seat while they can still be accepted.
 */
export async function assertMemberSeat(
  tx: Db,
  accountId: string,
  options: { countPendingInvitations: boolean; now: Date },
): Promise<void> {
  const [subscription] = await tx
    .select({ plan: subscriptions.plan })
    .from(subscriptions)
    .where(eq(subscriptions.accountId, accountId))
    .for('update');
  const { limit, planName } = memberLimitOf(subscription?.plan ?? 'self-hosted');
  if (limit === null) return;
  const [members] = await tx
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), isNull(memberships.removedAt)));
  let taken = members?.n ?? 0;
  if (options.countPendingInvitations) {
    const [pending] = await tx
      .select({ n: count() })
      .from(invitations)
      .where(
        and(
          eq(invitations.accountId, accountId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, options.now),
        ),
      );
    taken += pending?.n ?? 0;
  }
  if (taken >= limit) {
    throw new AppError(
      'forbidden',
      `the ${planName} plan includes ${limit} members (pending invitations count too). Revoke an invitation, remove a member, or change the plan under Billing.`,
    );
  }
}
