import { eq } from 'drizzle-orm';
import { subscriptions, withTenant, withUser, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { assertAdmin, type Member } from '../orgs/member.ts';
import type { BillingGateway } from './billing-gateway.ts';
import { checkoutTrialDays } from './person-trial.ts';
import { plans, type SoldPlanId } from './plans.ts';
import { ensureCustomer } from './stripe-customer.ts';

/** Statuses of a Stripe subscription that still exists for Stripe: a second one would bill twice. */
const LIVE = new Set(['active', 'trialing', 'past_due', 'unpaid', 'paused']);

export interface CheckoutDeps {
  db: Db;
  config: Config;
  gateway: BillingGateway;
  now: () => Date;
}

/** Where Stripe sends the browser back: the account's Billing page, which tells how it went. */
export function billingPageUrl(origin: string, accountId: string, checkout?: 'success' | 'canceled'): string {
  const url = new URL(`/a/${accountId}/billing`, origin);
  if (checkout !== undefined) url.searchParams.set('checkout', checkout);
  return url.toString();
}

/**
 * A Checkout Session for a plan. The plan's trial comes only with the account's first Stripe
 * subscription, and only for what is left of the trial of the person who checks out (one per person).
 * An account that already has a live Stripe subscription changes plans in the customer portal.
 */
export async function startCheckout(
  deps: CheckoutDeps,
  member: Member,
  input: { plan: SoldPlanId; origin: string },
): Promise<{ url: string }> {
  assertAdmin(member);
  const plan = plans(deps.config)[input.plan];
  if (plan.stripePriceId === undefined) throw new AppError('invalid_input', `the ${plan.name} plan is not sold on this server`);
  const [current] = await withTenant(deps.db, member.accountId, (tx) =>
    tx
      .select({ status: subscriptions.status, stripeSubscriptionId: subscriptions.stripeSubscriptionId })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, member.accountId)),
  );
  if (current?.stripeSubscriptionId != null && LIVE.has(current.status)) {
    throw new AppError('conflict', 'this account already has a subscription: change its plan in the customer portal (Manage billing)');
  }
  const firstSubscription = current?.stripeSubscriptionId == null;
  const trialDays =
    plan.trialDays > 0 && firstSubscription
      ? await withUser(deps.db, member.userId, (tx) => checkoutTrialDays(tx, member.userId, plan.trialDays, deps.now()))
      : undefined;
  const customerId = await ensureCustomer(deps.db, deps.gateway, member.accountId, member.userId);
  const session = await deps.gateway.createCheckoutSession({
    accountId: member.accountId,
    customerId,
    priceId: plan.stripePriceId,
    trialDays,
    successUrl: billingPageUrl(input.origin, member.accountId, 'success'),
    cancelUrl: billingPageUrl(input.origin, member.accountId, 'canceled'),
  });
  await withTenant(deps.db, member.accountId, (tx) =>
    recordAudit(tx, {
      accountId: member.accountId,
      action: 'billing.checkout_started',
      actorUserId: member.userId,
      targetType: 'stripe_checkout_session',
      targetId: session.id,
      data: { plan: plan.id, trialDays: trialDays ?? 0 },
    }),
  );
  return { url: session.url };
}

/** Stripe's customer portal: card, invoices, plan changes and cancellation. */
export async function openCustomerPortal(deps: CheckoutDeps, member: Member, input: { origin: string }): Promise<{ url: string }> {
  assertAdmin(member);
  const [current] = await withTenant(deps.db, member.accountId, (tx) =>
    tx.select({ customerId: subscriptions.stripeCustomerId }).from(subscriptions).where(eq(subscriptions.accountId, member.accountId)),
  );
  if (!current?.customerId) throw new AppError('invalid_input', 'this account has not subscribed yet: choose a plan first');
  const session = await deps.gateway.createPortalSession({
    customerId: current.customerId,
    returnUrl: billingPageUrl(input.origin, member.accountId),
  });
  await withTenant(deps.db, member.accountId, (tx) =>
    recordAudit(tx, { accountId: member.accountId, action: 'billing.portal_opened', actorUserId: member.userId }),
  );
  return session;
}
