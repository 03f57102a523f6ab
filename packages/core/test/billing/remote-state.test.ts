import { describe, expect, it } from 'vitest';
import type { RemoteSubscription } from '../../src/billing/billing-gateway.ts';
import { nextReconciliationAt } from '../../src/billing/billing-jobs.ts';
import { planForPrice } from '../../src/billing/plans.ts';
import { accessEndsAt, currentSubscription, stateOf } from '../../src/billing/remote-state.ts';
import { loadConfig } from '../../src/config.ts';

const day = (n: number) => new Date(Date.UTC(2026, 11, n));
const remote = (id: string, status: string, created: number, extra: Partial<RemoteSubscription> = {}): RemoteSubscription => ({
  id,
  customerId: 'cus_1',
  status,
  priceId: 'price_pro',
  created: day(created),
  currentPeriodStart: day(created),
  currentPeriodEnd: day(created + 30),
  endedAt: null,
  trialEnd: null,
  cancelAtPeriodEnd: false,
  ...extra,
});
const config = loadConfig({ STRIPE_PRICE_PRO: 'price_pro', STRIPE_PRICE_TEAM: 'price_team' });

describe("which of a customer's subscriptions decides the account", () => {
  it('prefers a running one, then a lapsed one, then an ended one, and a pending first payment last', () => {
    const canceled = remote('sub_old', 'canceled', 1, { endedAt: day(5) });
    const active = remote('sub_new', 'active', 2);
    const incomplete = remote('sub_try', 'incomplete', 3);
    const unpaid = remote('sub_unpaid', 'unpaid', 1);
    expect(currentSubscription([canceled, active, incomplete])?.id).toBe('sub_new');
    expect(currentSubscription([canceled, incomplete])?.id).toBe('sub_old');
    expect(currentSubscription([canceled, unpaid, incomplete])?.id).toBe('sub_unpaid');
    expect(currentSubscription([incomplete])?.id).toBe('sub_try');
    expect(currentSubscription([remote('a', 'canceled', 1), remote('b', 'canceled', 4)])?.id).toBe('b');
    expect(currentSubscription([])).toBeUndefined();
  });
});

describe('when access was paid through', () => {
  it('is the period end while the subscription runs', () => {
    expect(accessEndsAt(remote('s', 'active', 1))).toEqual(day(31));
    expect(accessEndsAt(remote('s', 'past_due', 1))).toEqual(day(31));
  });

  it('is when it ended once canceled, or the start of the unpaid period, never after the period end', () => {
    expect(accessEndsAt(remote('s', 'canceled', 1, { endedAt: day(10) }))).toEqual(day(10));
    expect(accessEndsAt(remote('s', 'canceled', 1, { endedAt: day(40) }))).toEqual(day(31));
    expect(accessEndsAt(remote('s', 'unpaid', 1))).toEqual(day(1));
    expect(accessEndsAt(remote('s', 'paused', 1, { trialEnd: day(15) }))).toEqual(day(15));
  });
});

describe('the state an account takes from Stripe', () => {
  it('maps the price to the plan, and an unknown price to the smallest plan sold', () => {
    expect(stateOf(config, remote('s', 'active', 1, { priceId: 'price_team', cancelAtPeriodEnd: true }))).toEqual({
      status: 'active',
      plan: 'team',
      currentPeriodEnd: day(31),
      cancelAtPeriodEnd: true,
      stripeSubscriptionId: 's',
    });
    expect(planForPrice(config, 'price_legacy')).toBe('pro');
    expect(planForPrice(config, null)).toBe('pro');
  });

  it('treats a status Stripe may add later as lapsed, never as free', () => {
    expect(stateOf(config, remote('s', 'something_new', 1)).status).toBe('unpaid');
  });
});

describe('the daily reconciliation', () => {
  it('runs at the next 03:00 UTC', () => {
    expect(nextReconciliationAt(new Date('2026-12-01T02:59:59Z'))).toEqual(new Date('2026-12-01T03:00:00Z'));
    expect(nextReconciliationAt(new Date('2026-12-01T03:00:00Z'))).toEqual(new Date('2026-12-02T03:00:00Z'));
    expect(nextReconciliationAt(new Date('2026-12-31T23:00:00Z'))).toEqual(new Date('2027-01-01T03:00:00Z'));
  });
});
