import { eq } from 'drizzle-orm';
import { accounts, subscriptions, withSystem, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { isSubscriptionStatus, SUBSCRIPTION_STATUSES } from './subscription-status.ts';

export interface SubscriptionChange {
  account: string;
  status: string;
  plan?: string | undefined;
  periodEnd?: Date | null | undefined;
}

/** Sets an account's subscription as Stripe would; the gate reads it on every call. */
export async function setSubscriptionByOperator(db: Db, change: SubscriptionChange): Promise<void> {
  if (!isSubscriptionStatus(change.status)) {
    throw new AppError('invalid_input', `status must be one of: ${SUBSCRIPTION_STATUSES.join(', ')}`);
  }
  const status = change.status;
  await withSystem(db, async (tx) => {
    const [account] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.slug, change.account));
    if (!account) throw new AppError('not_found', `account '${change.account}' not found`);
    const values = {
      status,
      ...(change.plan === undefined ? {} : { plan: change.plan }),
      ...(change.periodEnd === undefined ? {} : { currentPeriodEnd: change.periodEnd }),
      updatedAt: new Date(),
    };
    await tx
      .insert(subscriptions)
      .values({ accountId: account.id, plan: change.plan ?? 'self-hosted', ...values })
      .onConflictDoUpdate({ target: subscriptions.accountId, set: values });
    await recordAudit(tx, {
      accountId: account.id,
      action: 'subscription.changed',
      data: { status, plan: change.plan ?? null, periodEnd: change.periodEnd?.toISOString() ?? null, via: 'operator' },
    });
  });
}
