import type { Config } from '../config.ts';

export type PlanId = 'self-hosted' | 'trial' | 'pro' | 'team';

export interface Plan {
  id: PlanId;
  name: string;
  /** The Stripe price of the plan; none for plans that are not sold. */
  stripePriceId: string | undefined;
  trialDays: number;
  /** Live records per account; null is unlimited. */
  recordLimit: number | null;
  keyCallsPerMinute: number;
  projectCallsPerMinute: number;
  /** Members per organization; null is unlimited. */
  members: number | null;
  graceDays: number;
}

/** Every plan, in one place. Environment variables override the limits for every plan. */
export function plans(config: Config): Record<PlanId, Plan> {
  const limits = (plan: Omit<Plan, 'stripePriceId'> & { stripePriceId?: string | undefined }): Plan => ({
    ...plan,
    stripePriceId: plan.stripePriceId,
    recordLimit: config.MMW_RECORD_LIMIT ?? plan.recordLimit,
    keyCallsPerMinute: config.MMW_KEY_CALLS_PER_MINUTE ?? plan.keyCallsPerMinute,
    projectCallsPerMinute: config.MMW_PROJECT_CALLS_PER_MINUTE ?? plan.projectCallsPerMinute,
    graceDays: config.MMW_GRACE_DAYS ?? plan.graceDays,
  });
  return {
    'self-hosted': limits({
      id: 'self-hosted',
      name: 'Self-hosted',
      trialDays: 0,
      recordLimit: null,
      keyCallsPerMinute: 600,
      projectCallsPerMinute: 3000,
      members: null,
      graceDays: 14,
    }),
    trial: limits({
      id: 'trial',
      name: 'Free trial',
      trialDays: 14,
      recordLimit: 1_000,
      keyCallsPerMinute: 60,
      projectCallsPerMinute: 300,
      members: 3,
      graceDays: 7,
    }),
    pro: limits({
      id: 'pro',
      name: 'Pro',
      stripePriceId: config.STRIPE_PRICE_PRO,
      trialDays: 14,
      recordLimit: 50_000,
      keyCallsPerMinute: 300,
      projectCallsPerMinute: 1_500,
      members: 5,
      graceDays: 14,
    }),
    team: limits({
      id: 'team',
      name: 'Team',
      stripePriceId: config.STRIPE_PRICE_TEAM,
      trialDays: 14,
      recordLimit: 1_000_000,
      keyCallsPerMinute: 600,
      projectCallsPerMinute: 6_000,
      members: null,
      graceDays: 14,
    }),
  };
}

export function isPlanId(value: string): value is PlanId {
  return value === 'self-hosted' || value === 'trial' || value === 'pro' || value === 'team';
}

/** An unknown plan name (an old or hand-set one) gets the limits of the self-hosted plan. */
export function planById(config: Config, id: string): Plan {
  const all = plans(config);
  return isPlanId(id) ? all[id] : all['self-hosted'];
}
