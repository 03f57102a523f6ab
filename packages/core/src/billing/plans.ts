import type { Config } from '../config.ts';

export const PLAN_IDS = ['self-hosted', 'trial', 'pro', 'team'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export interface Plan {
  id: PlanId;
  name: string;
  /** One line for the plan picker. */
  summary: string;
  /** The Stripe price of the plan; none for plans that are not sold (or when billing is off). */
  stripePriceId: string | undefined;
  /**
   * Free days before the first charge. For the Free trial: how long a new account has it, without a
   * card. For a sold plan: the trial its Checkout Session starts with, for an account's first Stripe
   * subscription only.
   */
  trialDays: number;
  /** Live records per account; null is unlimited. */
  recordLimit: number | null;
  /** Messages of uploaded sessions kept per account; null is unlimited. */
  sessionMessageLimit: number | null;
  keyCallsPerMinute: number;
  projectCallsPerMinute: number;
  /**
   * Tool calls a month the plan includes (calendar month, UTC); null is unlimited. Once spent,
   * remember and forget are refused until the next month; search and validate_memory keep working.
   */
  callsPerMonth: number | null;
  /** Active members per organization; null is unlimited. */
  members: number | null;
  /** Read-only days after the subscription ends, before memory becomes unavailable. */
  graceDays: number;
}

type BasePlan = Omit<Plan, 'stripePriceId'>;

/** Every plan, in one place; the Stripe prices and the environment's overrides are applied by plans(). */
const basePlans: Record<PlanId, BasePlan> = {
  'self-hosted': {
    id: 'self-hosted',
    name: 'Self-hosted',
    summary: 'Billing is off on this server: no limits but the call rates, and no end.',
    trialDays: 0,
    recordLimit: null,
    sessionMessageLimit: null,
    keyCallsPerMinute: 600,
    projectCallsPerMinute: 3000,
    callsPerMonth: null,
    members: null,
    graceDays: 14,
  },
  trial: {
    id: 'trial',
    name: 'Free trial',
    summary: '14 days without a card, once per person: organizations you create later share it.',
    trialDays: 14,
    recordLimit: 1_000,
    sessionMessageLimit: 10_000,
    keyCallsPerMinute: 60,
    projectCallsPerMinute: 300,
    callsPerMonth: 20_000,
    members: 3,
    graceDays: 7,
  },
  pro: {
    id: 'pro',
    name: 'Pro',
    summary: 'For a person or a small team.',
    trialDays: 0,
    recordLimit: 50_000,
    sessionMessageLimit: 500_000,
    keyCallsPerMinute: 300,
    projectCallsPerMinute: 1_500,
    callsPerMonth: 500_000,
    members: 5,
    graceDays: 14,
  },
  team: {
    id: 'team',
    name: 'Team',
    summary: 'For organizations: any number of members, with a 14-day trial.',
    trialDays: 14,
    recordLimit: 1_000_000,
    sessionMessageLimit: 5_000_000,
    keyCallsPerMinute: 600,
    projectCallsPerMinute: 6_000,
    callsPerMonth: 5_000_000,
    members: null,
    graceDays: 14,
  },
};

/** The plans that can be bought through Checkout. */
export const SOLD_PLAN_IDS = ['pro', 'team'] as const satisfies readonly PlanId[];
export type SoldPlanId = (typeof SOLD_PLAN_IDS)[number];

function priceOf(config: Config, id: PlanId): string | undefined {
  if (id === 'pro') return config.STRIPE_PRICE_PRO;
  if (id === 'team') return config.STRIPE_PRICE_TEAM;
  return undefined;
}

/** Every plan, with its Stripe price; environment variables override the limits for every plan. */
/** The plans of a config, built once per config object: every tool call reads its caller's plan. */
const plansByConfig = new WeakMap<Config, Record<PlanId, Plan>>();

export function plans(config: Config): Record<PlanId, Plan> {
  const known = plansByConfig.get(config);
  if (known) return known;
  const built = buildPlans(config);
  plansByConfig.set(config, built);
  return built;
}

function buildPlans(config: Config): Record<PlanId, Plan> {
  const withConfig = (plan: BasePlan): Plan => ({
    ...plan,
    stripePriceId: priceOf(config, plan.id),
    recordLimit: config.MMW_RECORD_LIMIT ?? plan.recordLimit,
    sessionMessageLimit: config.MMW_SESSION_MESSAGE_LIMIT ?? plan.sessionMessageLimit,
    keyCallsPerMinute: config.MMW_KEY_CALLS_PER_MINUTE ?? plan.keyCallsPerMinute,
    projectCallsPerMinute: config.MMW_PROJECT_CALLS_PER_MINUTE ?? plan.projectCallsPerMinute,
    graceDays: config.MMW_GRACE_DAYS ?? plan.graceDays,
    callsPerMonth: plan.callsPerMonth === null ? null : (config.MMW_CALLS_PER_MONTH ?? plan.callsPerMonth),
  });
  return {
    'self-hosted': withConfig(basePlans['self-hosted']),
    trial: withConfig(basePlans.trial),
    pro: withConfig(basePlans.pro),
    team: withConfig(basePlans.team),
  };
}

export function isPlanId(value: string): value is PlanId {
  return (PLAN_IDS as readonly string[]).includes(value);
}

export function isSoldPlanId(value: string): value is SoldPlanId {
  return (SOLD_PLAN_IDS as readonly string[]).includes(value);
}

/** An unknown plan name (an old or hand-set one) gets the limits of the self-hosted plan. */
export function planById(config: Config, id: string): Plan {
  const all = plans(config);
  return isPlanId(id) ? all[id] : all['self-hosted'];
}

/** Members a plan allows; no environment variable overrides it, so no config is needed. */
export function memberLimitOf(planId: string): { limit: number | null; planName: string } {
  const plan = isPlanId(planId) ? basePlans[planId] : basePlans['self-hosted'];
  return { limit: plan.members, planName: plan.name };
}

/**
 * The plan a Stripe price stands for. A price this server does not know (an old price, or one added
 * in Stripe's dashboard) counts as Pro, the smallest plan sold, rather than as an unlimited one.
 */
export function planForPrice(config: Config, priceId: string | null): SoldPlanId {
  for (const id of SOLD_PLAN_IDS) {
    if (priceId !== null && priceOf(config, id) === priceId) return id;
  }
  return 'pro';
}
