import type { Config } from '../config.ts';
import type { RemoteSubscription } from './billing-gateway.ts';
import { planForPrice, type SoldPlanId } from './plans.ts';
import { isSubscriptionStatus, type SubscriptionStatus } from './subscription-status.ts';

/** The account's subscription row as Stripe's state decides it. */
export interface SubscriptionState {
  status: SubscriptionStatus;
  plan: SoldPlanId;
  /** Paid through: the period end while it runs, the moment access ended once it has ended. */
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  stripeSubscriptionId: string;
}

const RUNNING = new Set(['active', 'trialing', 'past_due', 'incomplete']);

/**
 * Which of a customer's subscriptions decides the account: one that runs over one that lapsed, a
 * lapsed one over one that ended, and a first payment still pending (incomplete) only when there is
 * nothing else; among equals, the newest.
 */
const RANK: Record<string, number> = {
  active: 4,
  trialing: 4,
  past_due: 4,
  unpaid: 3,
  paused: 3,
  canceled: 2,
  incomplete_expired: 1,
  incomplete: 0,
};

export function currentSubscription(subscriptions: RemoteSubscription[]): RemoteSubscription | undefined {
  return [...subscriptions].sort(
    (a, b) => (RANK[b.status] ?? 0) - (RANK[a.status] ?? 0) || b.created.getTime() - a.created.getTime(),
  )[0];
}

/**
 * When access was paid through. While a subscription runs, its period end. Once it has ended, the
 * earlier of its period end and the moment it ended: canceled (ended_at), paused at the end of a
 * trial without a card, unpaid or expired from the start of the period that was not paid. The
 * grace period counts from here.
 */
export function accessEndsAt(subscription: RemoteSubscription): Date | null {
  if (RUNNING.has(subscription.status)) return subscription.currentPeriodEnd;
  const ended =
    subscription.endedAt ??
    (subscription.status === 'paused' ? subscription.trialEnd : null) ??
    subscription.currentPeriodStart ??
    subscription.currentPeriodEnd;
  if (ended === null) return subscription.currentPeriodEnd;
  const end = subscription.currentPeriodEnd;
  return end !== null && end < ended ? end : ended;
}

export function stateOf(config: Config, subscription: RemoteSubscription): SubscriptionState {
  // A status Stripe adds later is treated as lapsed: read-only for the grace period, never free.
  const status: SubscriptionStatus =
    isSubscriptionStatus(subscription.status) && subscription.status !== 'none' ? subscription.status : 'unpaid';
  return {
    status,
    plan: planForPrice(config, subscription.priceId),
    currentPeriodEnd: accessEndsAt(subscription),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    stripeSubscriptionId: subscription.id,
  };
}

export function sameState(
  a: Omit<SubscriptionState, 'plan' | 'status' | 'stripeSubscriptionId'> & { status: string; plan: string; stripeSubscriptionId: string | null },
  b: SubscriptionState,
): boolean {
  return (
    a.status === b.status &&
    a.plan === b.plan &&
    a.stripeSubscriptionId === b.stripeSubscriptionId &&
    a.cancelAtPeriodEnd === b.cancelAtPeriodEnd &&
    (a.currentPeriodEnd?.getTime() ?? null) === (b.currentPeriodEnd?.getTime() ?? null)
  );
}
