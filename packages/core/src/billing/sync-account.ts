import { eq } from 'drizzle-orm';
import { executeSqlOn, subscriptions, withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import type { Config } from '../config.ts';
import type { BillingGateway } from './billing-gateway.ts';
import { currentSubscription, sameState, stateOf } from './remote-state.ts';

export interface SyncCause {
  via: 'stripe' | 'reconciliation' | 'dashboard';
  /** The webhook event that asked for this sync. */
  eventId?: string;
  actorUserId?: string;
}

export type SyncOutcome = 'changed' | 'unchanged' | 'stale' | 'no_customer' | 'no_subscription' | 'kept_trial';

export interface SyncDeps {
  db: Db;
  config: Config;
  gateway: BillingGateway;
  now: () => Date;
}

/**
 * Makes the account's subscription what Stripe says it is now, whatever event asked: so events in
 * any order, repeated or missed, end in Stripe's latest state. Every change is audited.
 */
export async function syncAccountFromStripe(deps: SyncDeps, accountId: string, cause: SyncCause): Promise<SyncOutcome> {
  // Taken before asking Stripe: a sync that asked later has seen a state at least as new.
  const { rows } = await executeSqlOn(deps.db)(`select nextval('stripe_sync_seq')::text as seq`);
  const seq = Number(rows[0]?.seq);
  const [known] = await withTenant(deps.db, accountId, (tx) =>
    tx.select({ customerId: subscriptions.stripeCustomerId }).from(subscriptions).where(eq(subscriptions.accountId, accountId)),
  );
  if (!known?.customerId) return 'no_customer';
  const chosen = currentSubscription(await deps.gateway.listSubscriptions(known.customerId));
  if (!chosen) return 'no_subscription';
  const next = stateOf(deps.config, chosen);

  return withTenant(deps.db, accountId, async (tx) => {
    const [row] = await tx
      .select({
        status: subscriptions.status,
        plan: subscriptions.plan,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
        cancelAtPeriodEnd: subscriptions.cancelAtPeriodEnd,
        stripeSubscriptionId: subscriptions.stripeSubscriptionId,
        stripeSyncSeq: subscriptions.stripeSyncSeq,
      })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, accountId))
      .for('update');
    if (!row) return 'no_customer';
    if (row.stripeSyncSeq !== null && row.stripeSyncSeq > seq) return 'stale';
    // A first payment still pending does not take away the Free trial the account is in.
    if (next.status === 'incomplete' && row.stripeSubscriptionId === null) {
      await tx.update(subscriptions).set({ stripeSyncSeq: seq }).where(eq(subscriptions.accountId, accountId));
      return 'kept_trial';
    }
    const changed = !sameState(row, next);
    await tx
      .update(subscriptions)
      .set({ ...next, stripeSyncSeq: seq, ...(changed ? { updatedAt: deps.now() } : {}) })
      .where(eq(subscriptions.accountId, accountId));
    if (!changed) return 'unchanged';
    await recordAudit(tx, {
      accountId,
      action: 'subscription.changed',
      actorUserId: cause.actorUserId ?? null,
      targetType: 'stripe_subscription',
      targetId: next.stripeSubscriptionId,
      data: {
        status: next.status,
        plan: next.plan,
        periodEnd: next.currentPeriodEnd?.toISOString() ?? null,
        cancelAtPeriodEnd: next.cancelAtPeriodEnd,
        previous: { status: row.status, plan: row.plan },
        via: cause.via,
        ...(cause.eventId === undefined ? {} : { eventId: cause.eventId }),
      },
    });
    return 'changed';
  });
}
