import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { errorCode } from './fixtures.ts';
import { issueKey, ownerWithOrganization, subscriptionOf, useBilling } from './billing-fixtures.ts';

// No STRIPE_SECRET_KEY: the self-hosted mode.
const f = useBilling({ billing: false });

describe('without STRIPE_SECRET_KEY', () => {
  it('gives every new account the self-hosted plan, active with no end, and still shows usage', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'selfhost-co');
    expect(await subscriptionOf(f, accountId)).toMatchObject({ status: 'active', plan: 'self-hosted', current_period_end: null });
    const agent = await connectMcp(f.mcp.url, await issueKey(client, accountId));
    await agent.ok('remember', { content: 'Self-hosted memory works without billing' });
    await agent.close();
    await expect.poll(async () => (await client.billing.overview.query({ accountId })).usage.callsThisMonth.used).toBe(1);
    const overview = await client.billing.overview.query({ accountId });
    expect(overview).toMatchObject({
      billingEnabled: false,
      status: 'active',
      access: 'full',
      currentPeriodEnd: null,
      plan: { id: 'self-hosted', recordLimit: null, forSale: false },
      usage: { records: { used: 1, limit: null }, callsThisMonth: { used: 1, limit: null }, members: { used: 1, limit: null } },
    });
    expect(overview.plans.map((plan) => plan.id)).toEqual(['self-hosted']);
    expect(overview.usage.sessionMessages).toEqual({ used: 0, limit: null });
  });

  it('runs nothing of billing: no Checkout, no portal, no webhooks, no jobs, no call to Stripe', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'no-billing-co');
    expect(await errorCode(client.billing.checkout.mutate({ accountId, plan: 'pro' }))).toBe('NOT_FOUND');
    expect(await errorCode(client.billing.portal.mutate({ accountId }))).toBe('NOT_FOUND');
    const event = f.stub.event('invoice.paid', { id: 'in_1', object: 'invoice', customer: 'cus_1' });
    expect((await f.deliver(event)).status).toBe(404);
    expect(await f.db.query('select 1 from stripe_events')).toEqual([]);
    expect(await f.db.query("select 1 from pgboss.job where name in ('stripe-event', 'billing-sync', 'billing-reconcile')")).toEqual([]);
    expect(f.stub.requests).toEqual([]);
  });
});
