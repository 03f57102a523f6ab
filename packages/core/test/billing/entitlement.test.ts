import { describe, expect, it } from 'vitest';
import { entitlementFor, type SubscriptionFacts } from '../../src/billing/entitlement.ts';
import type { SubscriptionStatus } from '../../src/billing/subscription-status.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-12-01T12:00:00Z');
const at = (days: number) => new Date(now.getTime() + days * DAY);
const facts = (status: SubscriptionStatus, periodEnd: Date | null): SubscriptionFacts => ({
  status,
  currentPeriodEnd: periodEnd,
  updatedAt: at(-1),
});

describe('status to entitlement', () => {
  it('gives active and trialing everything, and past_due everything with a notice', () => {
    expect(entitlementFor(facts('active', at(10)), 14, now)).toEqual({ access: 'full', notice: undefined });
    expect(entitlementFor(facts('active', null), 14, now)).toEqual({ access: 'full', notice: undefined });
    expect(entitlementFor(facts('trialing', at(3)), 14, now)).toEqual({ access: 'full', notice: undefined });
    const late = entitlementFor(facts('past_due', at(10)), 14, now);
    expect(late.access).toBe('full');
    expect(late.notice).toMatch(/^\[MMW Notice\]: the last payment failed/);
  });

  it('makes unpaid, canceled, incomplete_expired and paused read-only for the grace period, then unavailable', () => {
    for (const status of ['unpaid', 'canceled', 'incomplete_expired', 'paused'] as const) {
      const inGrace = entitlementFor(facts(status, at(-13)), 14, now);
      expect(inGrace.access).toBe('read_only');
      expect(inGrace.notice).toMatch(/read-only until 2026-12-02/);
      const over = entitlementFor(facts(status, at(-15)), 14, now);
      expect(over.access).toBe('none');
      expect(over.notice).toMatch(/grace period is over/);
    }
  });

  it('treats a running subscription past its period end as ended', () => {
    expect(entitlementFor(facts('trialing', at(-1)), 7, now).access).toBe('read_only');
    expect(entitlementFor(facts('active', at(-8)), 7, now).access).toBe('none');
  });

  it('counts the grace of an ended subscription without a period end from when its status was set', () => {
    expect(entitlementFor({ status: 'canceled', currentPeriodEnd: null, updatedAt: at(-2) }, 3, now).access).toBe('read_only');
    expect(entitlementFor({ status: 'canceled', currentPeriodEnd: null, updatedAt: at(-4) }, 3, now).access).toBe('none');
  });

  it('provisions nothing for an incomplete first payment or without a subscription', () => {
    const pending = entitlementFor(facts('incomplete', at(10)), 14, now);
    expect(pending.access).toBe('none');
    expect(pending.notice).toMatch(/first payment/);
    expect(entitlementFor(facts('none', null), 14, now).access).toBe('none');
    expect(entitlementFor(undefined, 14, now).access).toBe('none');
  });
});
