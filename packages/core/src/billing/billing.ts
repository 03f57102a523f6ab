import type { Db } from '@mmw/db';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import { runnable, type JobQueue, type RunnableJob } from '../jobs/job-queue.ts';
import { assertAdmin, type Member } from '../orgs/member.ts';
import type { BillingGateway } from './billing-gateway.ts';
import { billingJobs } from './billing-jobs.ts';
import { billingOverview, type BillingOverview } from './billing-overview.ts';
import { openCustomerPortal, startCheckout } from './checkout.ts';
import { createPlanPriceCache } from './plan-prices.ts';
import { plans, type SoldPlanId } from './plans.ts';
import { gatewayFromConfig } from './stripe-gateway.ts';
import { receiveStripeWebhook, type WebhookOutcome } from './stripe-webhook.ts';
import { syncAccountFromStripe } from './sync-account.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The subscription a new account starts with. */
export interface NewAccountSubscription {
  status: 'active' | 'trialing';
  plan: 'self-hosted' | 'trial';
  currentPeriodEnd: Date | null;
  /** Now, by billing's clock: a trial that ends before it is not given. */
  startsAt: Date;
}

/**
 * Billing for one process. Without STRIPE_SECRET_KEY it is off: new accounts get the self-hosted
 * plan with no end, nothing speaks to Stripe and no billing job runs. With it, new accounts start the
 * Free trial and their subscriptions follow Stripe.
 */
export interface Billing {
  readonly enabled: boolean;
  newAccountSubscription(): NewAccountSubscription;
  overview(member: Member): Promise<BillingOverview>;
  startCheckout(member: Member, input: { plan: SoldPlanId; origin: string }): Promise<{ url: string }>;
  openPortal(member: Member, input: { origin: string }): Promise<{ url: string }>;
  /** Reads the account's subscription from Stripe now (after Checkout returns), then the overview. */
  refresh(member: Member): Promise<BillingOverview>;
  receiveWebhook(rawBody: Buffer, signature: string | undefined): Promise<{ outcome: WebhookOutcome; eventId: string }>;
  /** The billing jobs the worker runs; none when billing is off. */
  jobs: RunnableJob[];
  /** Schedules the daily reconciliation; called when the worker starts. */
  scheduleReconciliation(): Promise<void>;
  reconcileNow(): Promise<void>;
}

export interface BillingDeps {
  db: Db;
  config: Config;
  jobs: JobQueue;
  now?: () => Date;
  /** Stripe by default when STRIPE_SECRET_KEY is set. */
  gateway?: BillingGateway;
}

const billingOff = () => new AppError('not_found', 'billing is off on this server: every account has the Self-hosted plan');

export function createBilling(deps: BillingDeps): Billing {
  const { db, config } = deps;
  const now = deps.now ?? (() => new Date());
  const gateway = deps.gateway ?? gatewayFromConfig(config);
  if (gateway === undefined) {
    const overview = (member: Member) => billingOverview(db, config, member, now());
    return {
      enabled: false,
      newAccountSubscription: () => ({ status: 'active', plan: 'self-hosted', currentPeriodEnd: null, startsAt: now() }),
      overview,
      startCheckout: () => Promise.reject(billingOff()),
      openPortal: () => Promise.reject(billingOff()),
      refresh: overview,
      receiveWebhook: () => Promise.reject(billingOff()),
      jobs: [],
      scheduleReconciliation: async () => {},
      reconcileNow: async () => {},
    };
  }

  const priceCache = createPlanPriceCache(config, gateway, now);
  const overview = async (member: Member) => billingOverview(db, config, member, now(), await priceCache.read());
  const syncDeps = { db, config, gateway, now };
  const jobs = billingJobs({ ...syncDeps, jobs: deps.jobs });
  const trialDays = plans(config).trial.trialDays;
  return {
    enabled: true,
    newAccountSubscription: () => {
      const startsAt = now();
      return { status: 'trialing', plan: 'trial', currentPeriodEnd: new Date(startsAt.getTime() + trialDays * DAY_MS), startsAt };
    },
    overview,
    startCheckout: (member, input) => startCheckout({ db, config, gateway, now }, member, input),
    openPortal: (member, input) => openCustomerPortal({ db, config, gateway, now }, member, input),
    async refresh(member) {
      assertAdmin(member);
      await syncAccountFromStripe(syncDeps, member.accountId, { via: 'dashboard', actorUserId: member.userId });
      return overview(member);
    },
    receiveWebhook: (rawBody, signature) =>
      receiveStripeWebhook({ db, gateway, jobs: deps.jobs, stripeEventJob: jobs.stripeEvent, now }, rawBody, signature),
    jobs: [runnable(jobs.stripeEvent), runnable(jobs.sync), runnable(jobs.reconcile)],
    scheduleReconciliation: () => jobs.scheduleReconciliation(new Date()),
    reconcileNow: () => jobs.reconcileNow(),
  };
}
