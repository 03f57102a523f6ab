import { and, count, eq, isNull } from 'drizzle-orm';
import { accountUsage, memberships, sessionMessages, subscriptions, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { isAdmin, type Member } from '../orgs/member.ts';
import { callsThisMonth } from '../usage/call-count.ts';
import { allowanceResetsOn, spentAllowance } from './call-allowance.ts';
import { checkoutTrialDaysFor } from './person-trial.ts';
import { entitlementFor } from './entitlement.ts';
import type { PlanPrices } from './plan-prices.ts';
import { isSoldPlanId, planById, plans, PLAN_IDS, SOLD_PLAN_IDS, type Plan } from './plans.ts';
import { isSubscriptionStatus } from './subscription-status.ts';

const usageSchema = z.object({ used: z.number(), limit: z.number().nullable() });

const planSchema = z.object({
  id: z.enum(PLAN_IDS),
  name: z.string(),
  summary: z.string(),
  trialDays: z.number(),
  recordLimit: z.number().nullable(),
  sessionMessageLimit: z.number().nullable(),
  keyCallsPerMinute: z.number(),
  projectCallsPerMinute: z.number(),
  callsPerMonth: z.number().nullable(),
  members: z.number().nullable(),
  graceDays: z.number(),
  /** Can be bought here: billing is on and the plan has a Stripe price. */
  forSale: z.boolean(),
  /**
   * The trial days a Checkout of this plan by the member viewing would start with now: the rest of
   * their one trial, on the account's first Stripe subscription only; 0 for none.
   */
  checkoutTrialDays: z.number(),
  /** The price as Stripe has it (cached); null for plans that are not sold, or while Stripe cannot say. */
  price: z
    .object({
      unitAmount: z.number().nullable(),
      currency: z.string(),
      interval: z.string().nullable(),
      intervalCount: z.number(),
    })
    .nullable(),
});

export const billingOverviewSchema = z.object({
  billingEnabled: z.boolean(),
  /** Owners and admins may subscribe and open the customer portal. */
  canManage: z.boolean(),
  plan: planSchema,
  status: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** The account has a Stripe customer, so the customer portal can open. */
  hasCustomer: z.boolean(),
  /** A Stripe subscription that still runs: plan changes go through the portal, not Checkout. */
  subscribed: z.boolean(),
  access: z.enum(['full', 'read_only', 'none']),
  notice: z.string().nullable(),
  /** When the month's call allowance starts over (the first of next month, UTC). */
  callsResetOn: z.string(),
  usage: z.object({
    records: usageSchema,
    sessionMessages: usageSchema,
    callsThisMonth: usageSchema,
    members: usageSchema,
  }),
  plans: z.array(planSchema),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

/** Longer than any plan's trial: the days left of the viewer's trial, as a Checkout would count them. */
const DAYS_PROBE = 366;

const RUNNING = new Set(['active', 'trialing', 'past_due', 'unpaid', 'paused', 'incomplete']);

function planView(plan: Plan, billingEnabled: boolean, prices: PlanPrices, trialDays: TrialDaysOf): z.infer<typeof planSchema> {
  const { stripePriceId, ...rest } = plan;
  const price = isSoldPlanId(plan.id) ? prices[plan.id] : undefined;
  return {
    ...rest,
    forSale: billingEnabled && stripePriceId !== undefined,
    price: price ?? null,
    checkoutTrialDays: isSoldPlanId(plan.id) ? trialDays(plan) : 0,
  };
}

type TrialDaysOf = (plan: Plan) => number;

/** The account's plan, subscription, access and usage against the plan, for any member. */
export async function billingOverview(
  db: Db,
  config: Config,
  member: Member,
  now: Date,
  prices: PlanPrices = {},
): Promise<BillingOverview> {
  const billingEnabled = config.STRIPE_SECRET_KEY !== undefined;
  const facts = await withTenant(db, member.accountId, async (tx) => {
    const [subscription] = await tx
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.accountId, member.accountId));
    const [records] = await tx
      .select({ n: accountUsage.recordCount })
      .from(accountUsage)
      .where(eq(accountUsage.accountId, member.accountId));
    const [messages] = await tx
      .select({ n: count() })
      .from(sessionMessages)
      .where(eq(sessionMessages.accountId, member.accountId));
    const [members] = await tx
      .select({ n: count() })
      .from(memberships)
      .where(and(eq(memberships.accountId, member.accountId), isNull(memberships.removedAt)));
    return {
      subscription,
      personTrialDays: billingEnabled
        ? ((await checkoutTrialDaysFor(tx, member.userId, DAYS_PROBE, now)) ?? 0)
        : 0,
      records: records?.n ?? 0,
      sessionMessages: messages?.n ?? 0,
      members: members?.n ?? 0,
      calls: await callsThisMonth(tx, member.accountId),
    };
  });
  const subscription = facts.subscription;
  const plan = planById(config, subscription?.plan ?? 'self-hosted');
  const status = subscription?.status ?? 'none';
  const entitlement = entitlementFor(
    subscription && isSubscriptionStatus(subscription.status)
      ? { ...subscription, status: subscription.status }
      : undefined,
    plan.graceDays,
    now,
  );
  const all = plans(config);
  // Only the account's first Stripe subscription starts with a trial, and only what is left of the viewer's.
  const firstSubscription = subscription?.stripeSubscriptionId == null;
  const trialDays: TrialDaysOf = (shownPlan) =>
    firstSubscription ? Math.min(shownPlan.trialDays, facts.personTrialDays) : 0;
  const spent = spentAllowance(plan, facts.calls, now);
  const shown = billingEnabled ? (['trial', ...SOLD_PLAN_IDS] as const) : (['self-hosted'] as const);
  return {
    billingEnabled,
    canManage: isAdmin(member),
    plan: planView(plan, billingEnabled, prices, trialDays),
    status,
    currentPeriodEnd: subscription?.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: subscription?.cancelAtPeriodEnd ?? false,
    hasCustomer: subscription?.stripeCustomerId != null,
    subscribed: subscription?.stripeSubscriptionId != null && RUNNING.has(status),
    access: entitlement.access,
    notice: (entitlement.access === 'full' ? (spent ?? entitlement.notice) : entitlement.notice) ?? null,
    callsResetOn: allowanceResetsOn(now).toISOString().slice(0, 10),
    usage: {
      records: { used: facts.records, limit: plan.recordLimit },
      sessionMessages: { used: facts.sessionMessages, limit: plan.sessionMessageLimit },
      callsThisMonth: { used: facts.calls, limit: plan.callsPerMonth },
      members: { used: facts.members, limit: plan.members },
    },
    plans: shown.map((id) => planView(all[id], billingEnabled, prices, trialDays)),
  };
}
