import { describe, expect, it } from 'vitest';
import { ownerWithOrganization, useBilling } from './billing-fixtures.ts';
import { dashboardClient } from './dashboard-client.ts';

// Prices are kept for 60 s here, so the test can step past them with the shared clock.
const f = useBilling({ env: () => ({ STRIPE_PRICE_CACHE_SECONDS: '60' }) });
const DAY_MS = 24 * 60 * 60 * 1000;

const priceReads = () => f.stub.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/prices/')).length;

describe("the plan picker's prices", () => {
  it("shows each sold plan's price as Stripe has it, read through Stripe's library and kept for a bounded time", async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'prices-co');
    const readsBefore = priceReads();
    const overview = await client.billing.overview.query({ accountId });
    expect(overview.plans.map((plan) => [plan.id, plan.price])).toEqual([
      ['trial', null],
      ['pro', { unitAmount: 1200, currency: 'usd', interval: 'month', intervalCount: 1 }],
      ['team', { unitAmount: 4900, currency: 'usd', interval: 'month', intervalCount: 1 }],
    ]);
    // The allowance and its reset day come with the overview.
    expect(overview.usage.callsThisMonth.limit).toBe(20_000);
    expect(overview.callsResetOn).toMatch(/^\d{4}-\d{2}-01$/);

    // A price changed in Stripe shows once the kept one is older than the cache's time, not before.
    f.stub.priceAmounts[f.stub.prices.pro] = { unitAmount: 1500, currency: 'usd' };
    await client.billing.overview.query({ accountId });
    const again = await client.billing.overview.query({ accountId });
    expect(again.plans.find((plan) => plan.id === 'pro')?.price?.unitAmount).toBe(1200);
    expect(priceReads() - readsBefore).toBeLessThanOrEqual(2);
    f.advanceDays(61 / (24 * 60 * 60));
    const fresh = await client.billing.overview.query({ accountId });
    expect(fresh.plans.find((plan) => plan.id === 'pro')?.price?.unitAmount).toBe(1500);
    f.stub.priceAmounts[f.stub.prices.pro] = { unitAmount: 1200, currency: 'usd' };
  });

  it('still shows the plans, without prices, while Stripe cannot be reached', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'outage-co');
    f.advanceDays(61 / (24 * 60 * 60));
    f.stub.failNext(100);
    const overview = await client.billing.overview.query({ accountId });
    f.stub.failNext(0);
    expect(overview.plans.map((plan) => [plan.id, plan.price])).toEqual([
      ['trial', null],
      ['pro', null],
      ['team', null],
    ]);
    // A failed read is kept for a tenth of the cache's time only.
    f.advanceDays(7 / (24 * 60 * 60));
    const healed = await client.billing.overview.query({ accountId });
    expect(healed.plans.find((plan) => plan.id === 'team')?.price?.unitAmount).toBe(4900);
  });
});

describe('one trial per person', () => {
  it("gives a person's later organizations what is left of their one trial, and none once it is over", async () => {
    const alice = await ownerWithOrganization(f, 'First Trial Co');
    const first = await alice.client.billing.overview.query({ accountId: alice.accountId });
    const trialEnd = new Date(first.currentPeriodEnd ?? 0).getTime();
    expect(first.status).toBe('trialing');
    expect(Math.abs(trialEnd - (f.now().getTime() + 14 * DAY_MS))).toBeLessThan(60_000);

    // Ten days on, a new organization shares the same trial: it ends when Alice's trial ends.
    f.advanceDays(10);
    const second = await alice.client.accounts.createOrganization.mutate({ name: 'Second Trial Co' });
    const secondView = await alice.client.billing.overview.query({ accountId: second.id });
    expect(secondView).toMatchObject({ status: 'trialing', access: 'full' });
    expect(Math.abs(new Date(secondView.currentPeriodEnd ?? 0).getTime() - trialEnd)).toBeLessThan(1_000);
    // Team's trial at Checkout is what is left of it (4 days), not another 14; the page says so first.
    expect(secondView.plans.map((plan) => [plan.id, plan.checkoutTrialDays])).toEqual([
      ['trial', 0],
      ['pro', 0],
      ['team', 4],
    ]);
    const { url } = await alice.client.billing.checkout.mutate({ accountId: second.id, plan: 'team' });
    expect(f.stub.sessions.get(url.split('/checkout/')[1] ?? '')?.requested.trialDays).toBe(4);

    // Once it is over, a new organization starts without a subscription, and Checkout without a trial.
    f.advanceDays(5);
    const third = await alice.client.accounts.createOrganization.mutate({ name: 'Third Trial Co' });
    const thirdView = await alice.client.billing.overview.query({ accountId: third.id });
    expect(thirdView).toMatchObject({ status: 'none', access: 'none' });
    expect(thirdView.notice).toMatch(/^\[MMW Notice\]: this account has no active subscription/);
    expect(thirdView.plans.find((plan) => plan.id === 'team')?.checkoutTrialDays).toBe(0);
    const later = await alice.client.billing.checkout.mutate({ accountId: third.id, plan: 'team' });
    expect(f.stub.sessions.get(later.url.split('/checkout/')[1] ?? '')?.requested.trialDays).toBeNull();

    // Another person has a trial of their own.
    const bob = await ownerWithOrganization(f, 'Bob Trial Co');
    const bobView = await bob.client.billing.overview.query({ accountId: bob.accountId });
    expect(bobView.status).toBe('trialing');
    expect(Math.abs(new Date(bobView.currentPeriodEnd ?? 0).getTime() - (f.now().getTime() + 14 * DAY_MS))).toBeLessThan(60_000);
  });

  it('shares one trial between two organizations created at the same moment', async () => {
    const { client: carol } = dashboardClient(f.url);
    const email = `carol.${Math.random().toString(36).slice(2, 8)}@example.com`;
    await carol.auth.signUp.mutate({ email, password: 'correct horse battery staple', name: 'Carol' });
    const [one, two] = await Promise.all([
      carol.accounts.createOrganization.mutate({ name: 'Carol One' }),
      carol.accounts.createOrganization.mutate({ name: 'Carol Two' }),
    ]);
    const ends = await Promise.all(
      [one, two].map(async (org) => (await carol.billing.overview.query({ accountId: org.id })).currentPeriodEnd),
    );
    expect(ends[0]).not.toBeNull();
    expect(ends[0]).toBe(ends[1]);
  });
});
