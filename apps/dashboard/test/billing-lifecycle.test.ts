import { describe, expect, it } from 'vitest';
import { connectMcp, type McpTestClient } from '@mmw/test-support';
import { issueKey, ownerWithOrganization, subscriptionAudit, subscriptionOf, useBilling } from './billing-fixtures.ts';

const f = useBilling();

async function deliverAll(events: Array<{ id: string }>): Promise<void> {
  for (const event of events) {
    const delivered = await f.deliver(event as Parameters<typeof f.deliver>[0]);
    expect(delivered.status).toBe(200);
  }
  await f.drain();
}

async function expectReadOnly(agent: McpTestClient): Promise<void> {
  const search = await agent.call('search', { query: 'deploy' });
  expect(search.isError).toBe(false);
  expect(search.structured?.notice).toMatch(/^\[MMW Notice\]: .*read-only/);
  const write = await agent.call('remember', { content: 'written while read-only' });
  expect(write.isError).toBe(true);
  expect(write.text).toMatch(/^\[MMW Notice\]: .*read-only/);
}

describe('a subscription through its life, with a moved clock', () => {
  it('goes from active through a failed payment and cancellation to read-only, to unavailable, and back by subscribing again', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'lifecycle-co');
    const agent = await connectMcp(f.mcp.url, await issueKey(client, accountId));
    const { url } = await client.billing.checkout.mutate({ accountId, plan: 'pro' });
    const first = f.stub.completeCheckout(url.split('/checkout/')[1] ?? '');
    await deliverAll(first.events);
    expect((await subscriptionOf(f, accountId)).status).toBe('active');
    const kept = await agent.ok<{ id: string }>('remember', { content: 'Deploys run from the release branch' });

    // The renewal payment fails: past_due keeps full access, with a notice.
    f.stub.updateSubscription(first.subscription.id, { status: 'past_due' });
    await deliverAll([f.stub.invoiceEvent('invoice.payment_failed', first.subscription.id)]);
    const late = await agent.call('remember', { content: 'Written while the payment is late' });
    expect(late.isError).toBe(false);
    expect(late.structured?.notice).toMatch(/^\[MMW Notice\]: .*payment failed/);
    expect((await client.billing.overview.query({ accountId })).access).toBe('full');

    // Retries fail too; Stripe cancels the subscription. Memory turns read-only for Pro's 14 days.
    f.advanceDays(20);
    const endedAt = new Date(Math.floor(f.now().getTime() / 1000) * 1000);
    f.stub.updateSubscription(first.subscription.id, { status: 'canceled', endedAt });
    await deliverAll([f.stub.subscriptionEvent('customer.subscription.deleted', first.subscription.id)]);
    expect(await subscriptionOf(f, accountId)).toMatchObject({ status: 'canceled', current_period_end: endedAt });
    await expectReadOnly(agent);
    f.advanceDays(13);
    await expectReadOnly(agent);
    expect((await client.billing.overview.query({ accountId })).access).toBe('read_only');

    // Past the grace period: unavailable, for reads too.
    f.advanceDays(2);
    const gone = await agent.call('search', { query: 'deploy' });
    expect(gone.isError).toBe(true);
    expect(gone.text).toMatch(/^\[MMW Notice\]: .*grace period is over/);
    expect((await client.billing.overview.query({ accountId })).access).toBe('none');

    // Subscribing again (Team; no second trial) brings everything back, records included.
    const again = await client.billing.checkout.mutate({ accountId, plan: 'team' });
    const sessionId = again.url.split('/checkout/')[1] ?? '';
    expect(f.stub.sessions.get(sessionId)?.requested.trialDays).toBeNull();
    const second = f.stub.completeCheckout(sessionId);
    await deliverAll(second.events);
    expect(await subscriptionOf(f, accountId)).toMatchObject({ status: 'active', plan: 'team', stripe_subscription_id: second.subscription.id });
    const found = await agent.ok<{ result: Array<{ id: string }> }>('search', { query: 'deploys release branch' });
    expect(found.result.map((r) => r.id)).toContain(kept.id);
    expect((await agent.call('remember', { content: 'Back on the Team plan' })).isError).toBe(false);

    // The old subscription's events, arriving late, do not take the account back.
    await deliverAll([
      f.stub.subscriptionEvent('customer.subscription.deleted', first.subscription.id),
      f.stub.invoiceEvent('invoice.payment_failed', first.subscription.id),
    ]);
    expect(await subscriptionOf(f, accountId)).toMatchObject({ status: 'active', plan: 'team' });

    const trail = (await subscriptionAudit(f, accountId)).map((entry) => [entry.data.status, entry.data.plan, entry.data.via]);
    expect(trail).toEqual([
      ['trialing', 'trial', 'sign-up'],
      ['active', 'pro', 'stripe'],
      ['past_due', 'pro', 'stripe'],
      ['canceled', 'pro', 'stripe'],
      ['active', 'team', 'stripe'],
    ]);
    await agent.close();
  });

  it('ends the Free trial in read-only for its 7 days, then unavailable', async () => {
    const { client, accountId } = await ownerWithOrganization(f, 'trial-end-co');
    const agent = await connectMcp(f.mcp.url, await issueKey(client, accountId));
    await agent.ok('remember', { content: 'A deploy note from the trial' });
    f.advanceDays(15);
    await expectReadOnly(agent);
    f.advanceDays(7);
    const gone = await agent.call('search', { query: 'deploy' });
    expect(gone.text).toMatch(/^\[MMW Notice\]: .*grace period is over/);
    await agent.close();
  });
});
