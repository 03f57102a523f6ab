import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { errorCode } from './fixtures.ts';
import { issueKey, ownerWithOrganization, subscriptionAudit, subscriptionOf, useBilling } from './billing-fixtures.ts';

const f = useBilling();
const DAY_MS = 24 * 60 * 60 * 1000;

describe('plans and the Free trial', () => {
  it('starts a new organization on the Free trial and shows its usage against the plan', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'trial-co');
    const overview = await client.billing.overview.query({ accountId });
    expect(overview).toMatchObject({
      billingEnabled: true,
      canManage: true,
      status: 'trialing',
      access: 'full',
      notice: null,
      subscribed: false,
      hasCustomer: false,
      plan: { id: 'trial', name: 'Free trial', recordLimit: 1000, members: 3, forSale: false },
      usage: { records: { used: 0, limit: 1000 }, callsThisMonth: { used: 0, limit: 20_000 }, members: { used: 1, limit: 3 } },
    });
    const trialEnd = new Date(overview.currentPeriodEnd ?? 0).getTime();
    expect(Math.abs(trialEnd - (f.now().getTime() + 14 * DAY_MS))).toBeLessThan(60_000);
    expect(overview.plans.map((plan) => [plan.id, plan.forSale])).toEqual([
      ['trial', false],
      ['pro', true],
      ['team', true],
    ]);

    const agent = await connectMcp(f.mcp.url, await issueKey(client, accountId));
    await agent.ok('remember', { content: 'The trial account keeps its deploy notes here' });
    await agent.ok('remember', { content: 'Releases go out on Tuesdays' });
    await agent.ok('search', { query: 'deploy' });
    const used = await client.billing.overview.query({ accountId });
    expect(used.usage.records.used).toBe(2);
    // Calls are written a moment after they are made, in one statement for every account.
    await expect.poll(async () => (await client.billing.overview.query({ accountId })).usage.callsThisMonth.used).toBe(3);
    await agent.close();

    const audit = await subscriptionAudit(f, accountId);
    expect(audit.map((row) => row.data)).toEqual([expect.objectContaining({ status: 'trialing', plan: 'trial', via: 'sign-up' })]);
  });

  it("holds the plan's member limit, pending invitations included", async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'seats-co');
    await client.invitations.create.mutate({ accountId, email: 'one@example.com', role: 'member' });
    await client.invitations.create.mutate({ accountId, email: 'two@example.com', role: 'member' });
    const refused = client.invitations.create.mutate({ accountId, email: 'three@example.com', role: 'member' });
    await expect(refused).rejects.toThrow(/Free trial plan includes 3 members/);
  });

  it('lets only owners and admins subscribe', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'roles-co');
    const { link } = await client.invitations.create.mutate({ accountId, email: 'mia.member@example.com', role: 'member' });
    const { dashboardClient } = await import('./dashboard-client.ts');
    const member = dashboardClient(f.url).client;
    await member.auth.signUp.mutate({ email: 'mia.member@example.com', password: 'correct horse battery staple', name: 'Mia' });
    const verification = f.mail.lastLink('mia.member@example.com', '/verify-email/');
    await member.auth.verifyEmail.mutate({ token: verification.split('/verify-email/')[1] ?? '' });
    await member.invitations.accept.mutate({ token: link.split('/invite/')[1] ?? '' });
    const overview = await member.billing.overview.query({ accountId });
    expect(overview.canManage).toBe(false);
    expect(await errorCode(member.billing.checkout.mutate({ accountId, plan: 'pro' }))).toBe('FORBIDDEN');
    expect(await errorCode(member.billing.portal.mutate({ accountId }))).toBe('FORBIDDEN');
  });
});

describe('Checkout and the customer portal', () => {
  it('takes an organization from Checkout to an active Pro subscription', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'checkout-co');
    expect(await errorCode(client.billing.portal.mutate({ accountId }))).toBe('BAD_REQUEST');

    const { url } = await client.billing.checkout.mutate({ accountId, plan: 'pro' });
    const sessionId = url.split('/checkout/')[1] ?? '';
    const session = f.stub.sessions.get(sessionId);
    const row = await subscriptionOf(f, accountId);
    expect(url).toBe(`${f.stub.url}/checkout/${sessionId}`);
    expect(session).toMatchObject({
      customer: row.stripe_customer_id,
      client_reference_id: accountId,
      success_url: `${f.url}/a/${accountId}/billing?checkout=success`,
      cancel_url: `${f.url}/a/${accountId}/billing?checkout=canceled`,
      requested: { priceId: f.stub.prices.pro, trialDays: null },
    });
    expect(f.stub.customers.get(row.stripe_customer_id ?? '')?.metadata).toEqual({ account_id: accountId });
    // Choosing again before paying reuses the account's customer.
    await client.billing.checkout.mutate({ accountId, plan: 'pro' });
    expect((await subscriptionOf(f, accountId)).stripe_customer_id).toBe(row.stripe_customer_id);
    expect([...f.stub.customers.values()].filter((c) => c.metadata.account_id === accountId)).toHaveLength(1);

    const { subscription, events } = f.stub.completeCheckout(sessionId);
    for (const event of events) expect((await f.deliver(event)).body).toMatchObject({ outcome: 'stored', eventId: event.id });
    await f.drain();

    const overview = await client.billing.overview.query({ accountId });
    expect(overview).toMatchObject({ status: 'active', plan: { id: 'pro' }, access: 'full', subscribed: true, hasCustomer: true });
    expect(overview.usage.records.limit).toBe(50_000);
    expect(await subscriptionOf(f, accountId)).toMatchObject({ stripe_subscription_id: subscription.id, status: 'active', plan: 'pro' });
    const audit = await subscriptionAudit(f, accountId);
    expect(audit.at(-1)?.data).toMatchObject({ status: 'active', plan: 'pro', via: 'stripe', previous: { status: 'trialing', plan: 'trial' } });
    expect(events.map((e) => e.id)).toContain(audit.at(-1)?.data.eventId);
    expect(audit.filter((entry) => entry.data.via === 'stripe')).toHaveLength(1);

    // Subscribed: a plan change goes through the portal, not a second Checkout.
    expect(await errorCode(client.billing.checkout.mutate({ accountId, plan: 'team' }))).toBe('CONFLICT');
    const portal = await client.billing.portal.mutate({ accountId });
    expect(portal.url).toMatch(new RegExp(`^${f.stub.url}/portal/bps_`));
    const portalRequest = f.stub.requests.filter((r) => r.path === '/v1/billing_portal/sessions').at(-1);
    expect(portalRequest?.params).toMatchObject({ customer: row.stripe_customer_id, return_url: `${f.url}/a/${accountId}/billing` });

    const agent = await connectMcp(f.mcp.url, await issueKey(client, accountId));
    expect((await agent.call('remember', { content: 'Paid accounts remember' })).isError).toBe(false);
    await agent.close();
  });

  it('starts a first Team subscription with its trial, and reads it at once when Checkout returns', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'team-co');
    const { url } = await client.billing.checkout.mutate({ accountId, plan: 'team' });
    const sessionId = url.split('/checkout/')[1] ?? '';
    expect(f.stub.sessions.get(sessionId)?.requested).toEqual({ priceId: f.stub.prices.team, trialDays: 14 });
    f.stub.completeCheckout(sessionId);
    // No webhook yet: the page Checkout returns to asks Stripe itself.
    const overview = await client.billing.refresh.mutate({ accountId });
    expect(overview).toMatchObject({ status: 'trialing', plan: { id: 'team', members: null }, access: 'full' });
    const audit = await subscriptionAudit(f, accountId);
    expect(audit.at(-1)?.data).toMatchObject({ status: 'trialing', plan: 'team', via: 'dashboard' });
  });

  it('follows a plan change made in the portal', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'upgrade-co');
    const { url } = await client.billing.checkout.mutate({ accountId, plan: 'pro' });
    const { subscription, events } = f.stub.completeCheckout(url.split('/checkout/')[1] ?? '');
    for (const event of events) await f.deliver(event);
    f.stub.updateSubscription(subscription.id, { priceId: f.stub.prices.team, cancelAtPeriodEnd: true });
    await f.deliver(f.stub.subscriptionEvent('customer.subscription.updated', subscription.id));
    await f.drain();
    const overview = await client.billing.overview.query({ accountId });
    expect(overview).toMatchObject({ status: 'active', plan: { id: 'team' }, cancelAtPeriodEnd: true });
  });
});
