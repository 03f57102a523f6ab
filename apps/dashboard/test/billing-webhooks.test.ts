import { describe, expect, it } from 'vitest';
import { nextReconciliationAt } from '@mmw/core';
import { stripeSignature, type StripeEventJson } from '@mmw/test-support';
import { ownerWithOrganization, subscriptionAudit, subscriptionOf, useBilling, type BillingFixture } from './billing-fixtures.ts';

// Two secrets, as while the endpoint's secret is rolled in Stripe's dashboard: both sign.
const NEXT_SECRET = 'whsec_next_0123456789abcdef0123456789abcdef';
const f = useBilling({ env: (stub) => ({ STRIPE_WEBHOOK_SECRET: `${stub.webhookSecret}, ${NEXT_SECRET}` }) });

async function storedEvents(): Promise<number> {
  const [row] = await f.db.query<{ n: string }>('select count(*) as n from stripe_events');
  return Number(row?.n);
}

async function eventJobs(eventId: string): Promise<number> {
  const [row] = await f.db.query<{ n: string }>(
    `select (select count(*) from pgboss.job where name = 'stripe-event' and data->'payload'->>'eventId' = $1)
          + (select count(*) from pgboss.archive where name = 'stripe-event' and data->'payload'->>'eventId' = $1) as n`,
    [eventId],
  );
  return Number(row?.n);
}

/** An organization subscribed to Pro through Checkout, with its events delivered and processed. */
async function subscribedOrganization(fixture: BillingFixture, name: string) {
  const owner = await ownerWithOrganization(fixture, name);
  const { url } = await owner.client.billing.checkout.mutate({ accountId: owner.accountId, plan: 'pro' });
  const { subscription, events } = fixture.stub.completeCheckout(url.split('/checkout/')[1] ?? '');
  for (const event of events) await fixture.deliver(event);
  await fixture.drain();
  return { ...owner, subscription };
}

describe('the Stripe webhook route', () => {
  it('refuses tampered bodies, stale or future timestamps, unknown secrets and missing signatures with 400, changing nothing', async () => {
    const { accountId, subscription } = await subscribedOrganization(f, 'signed-co');
    const before = await subscriptionOf(f, accountId);
    const storedBefore = await storedEvents();
    f.stub.updateSubscription(subscription.id, { status: 'canceled', endedAt: f.now() });
    const event = f.stub.subscriptionEvent('customer.subscription.deleted', subscription.id);
    const payload = JSON.stringify(event, null, 2);

    const tampered = await f.deliver(event, { body: payload.replace('"canceled"', '"active"  ') });
    const stale = await f.deliver(event, { timestamp: Math.floor(f.now().getTime() / 1000) - 301 });
    // Stripe's library only refuses old timestamps; one from the future is refused as well.
    const future = await f.deliver(event, { timestamp: Math.floor(f.now().getTime() / 1000) + 301 });
    const unknownSecret = await f.deliver(event, { signature: stripeSignature(payload, 'whsec_someone_else') });
    const missing = await f.deliver(event, { signature: null });
    const garbage = await f.deliver(event, { signature: 't=1,v1=00' });
    for (const refused of [tampered, stale, future, unknownSecret, missing, garbage]) {
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/Stripe-Signature/);
    }
    await f.drain();
    expect(await storedEvents()).toBe(storedBefore);
    expect(await eventJobs(event.id)).toBe(0);
    expect(await subscriptionOf(f, accountId)).toEqual(before);

    // The same event, properly signed, is taken.
    expect((await f.deliver(event)).body.outcome).toBe('stored');
    await f.drain();
    expect((await subscriptionOf(f, accountId)).status).toBe('canceled');
  });

  it('accepts either secret while one is rolled, and a header carrying both signatures', async () => {
    const { subscription } = await subscribedOrganization(f, 'rolling-co');
    const byOld = f.stub.subscriptionEvent('customer.subscription.updated', subscription.id);
    const byNew = f.stub.subscriptionEvent('customer.subscription.updated', subscription.id);
    const byBoth = f.stub.subscriptionEvent('customer.subscription.updated', subscription.id);
    expect((await f.deliver(byOld)).status).toBe(200);
    const newPayload = JSON.stringify(byNew, null, 2);
    expect((await f.deliver(byNew, { signature: stripeSignature(newPayload, NEXT_SECRET) })).status).toBe(200);

    // During a roll, Stripe signs with both secrets in one header: t=…,v1=<old>,v1=<new>.
    const bothPayload = JSON.stringify(byBoth, null, 2);
    const timestamp = Math.floor(f.now().getTime() / 1000);
    const oldSignature = stripeSignature(bothPayload, f.stub.webhookSecret, timestamp);
    const newSignature = stripeSignature(bothPayload, NEXT_SECRET, timestamp).split(',')[1] ?? '';
    const delivered = await f.deliver(byBoth, { signature: `${oldSignature},${newSignature}` });
    expect(delivered).toMatchObject({ status: 200, body: { outcome: 'stored' } });
  });

  it('stores each event id once: a repeat is acknowledged and ignored', async () => {
    const { accountId, subscription } = await subscribedOrganization(f, 'repeat-co');
    f.stub.updateSubscription(subscription.id, { status: 'past_due' });
    const event = f.stub.invoiceEvent('invoice.payment_failed', subscription.id);
    const answers = await Promise.all([f.deliver(event), f.deliver(event), f.deliver(event)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers.map((a) => a.body.outcome).sort()).toEqual(['duplicate', 'duplicate', 'stored']);
    await f.drain();
    expect((await f.deliver(event)).body.outcome).toBe('duplicate');
    await f.drain();
    expect(await eventJobs(event.id)).toBe(1);
    const [row] = await f.db.query<{ processed: boolean; account_id: string; outcome: string }>(
      'select processed_at is not null as processed, account_id, outcome from stripe_events where id = $1',
      [event.id],
    );
    expect(row).toEqual({ processed: true, account_id: accountId, outcome: 'changed' });
    expect((await subscriptionOf(f, accountId)).status).toBe('past_due');
    const changes = (await subscriptionAudit(f, accountId)).filter((entry) => entry.data.eventId === event.id);
    expect(changes).toHaveLength(1);
    const failures = await f.db.query("select 1 from audit_events where account_id = $1 and action = 'billing.payment_failed'", [accountId]);
    expect(failures).toHaveLength(1);
  });

  it('acknowledges event types outside the allowlist without storing them', async () => {
    const event: StripeEventJson = f.stub.event('charge.refunded', { id: 'ch_123', object: 'charge', customer: 'cus_x' });
    const before = await storedEvents();
    expect(await f.deliver(event)).toMatchObject({ status: 200, body: { outcome: 'ignored' } });
    expect(await storedEvents()).toBe(before);
  });

  it('keeps secrets out of the tables and job payloads', async () => {
    const dump = await f.db.query<{ text: string }>(
      `select string_agg(t::text, ' ') as text from (
         select row_to_json(e)::text as t from stripe_events e
         union all select data::text from pgboss.job union all select data::text from pgboss.archive
         union all select data::text from audit_events union all select row_to_json(s)::text from subscriptions s) all_rows`,
    );
    const text = dump[0]?.text ?? '';
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(f.stub.secretKey);
    expect(text).not.toContain(f.stub.webhookSecret);
    expect(text).not.toContain(NEXT_SECRET);
    expect(text).not.toContain('v1=');
  });
});

describe('the daily reconciliation', () => {
  it('is scheduled once for the next 03:00 UTC, however often workers start', async () => {
    const before = nextReconciliationAt(new Date());
    await f.mcp.runtime.billing.scheduleReconciliation();
    await f.mcp.runtime.billing.scheduleReconciliation();
    const after = nextReconciliationAt(new Date());
    const rows = await f.db.query<{ start_after: Date }>(
      "select start_after from pgboss.job where name = 'billing-reconcile' and state = 'created'",
    );
    expect(rows).toHaveLength(1);
    // The worker that started with the fixture scheduled it already; the two calls added nothing.
    expect([before.getTime(), after.getTime()]).toContain(rows[0]?.start_after.getTime());
  });

  it('repairs an account whose webhook was missed', async () => {
    const healthy = await subscribedOrganization(f, 'healthy-co');
    const drifted = await subscribedOrganization(f, 'drifted-co');
    // Stripe cancels the subscription, and the event never arrives.
    const endedAt = new Date(Math.floor(f.now().getTime() / 1000) * 1000);
    f.stub.updateSubscription(drifted.subscription.id, { status: 'canceled', endedAt });
    const auditBefore = await subscriptionAudit(f, healthy.accountId);

    await f.mcp.runtime.billing.reconcileNow();
    await f.drain();

    expect(await subscriptionOf(f, drifted.accountId)).toMatchObject({ status: 'canceled', plan: 'pro', current_period_end: endedAt });
    const repair = (await subscriptionAudit(f, drifted.accountId)).at(-1);
    expect(repair?.data).toMatchObject({ status: 'canceled', via: 'reconciliation', previous: { status: 'active' } });
    const overview = await drifted.client.billing.overview.query({ accountId: drifted.accountId });
    expect(overview.access).toBe('read_only');
    // An account that matched Stripe is left as it was, with nothing audited.
    expect((await subscriptionOf(f, healthy.accountId)).status).toBe('active');
    expect(await subscriptionAudit(f, healthy.accountId)).toEqual(auditBefore);
  });

  it('retries a sync when Stripe fails, and ends in Stripe state', async () => {
    const { accountId, subscription } = await subscribedOrganization(f, 'flaky-co');
    f.stub.updateSubscription(subscription.id, { status: 'past_due' });
    // Stripe's library and then the job's retries take it through the failures.
    f.stub.failNext(4);
    const event = f.stub.invoiceEvent('invoice.payment_failed', subscription.id);
    await f.deliver(event);
    await f.drain();
    expect((await subscriptionOf(f, accountId)).status).toBe('past_due');
    const [job] = await f.db.query<{ retry_count: number; state: string }>(
      `select retry_count, state from pgboss.job where name = 'stripe-event' and data->'payload'->>'eventId' = $1
       union all select retry_count, state from pgboss.archive where name = 'stripe-event' and data->'payload'->>'eventId' = $1`,
      [event.id],
    );
    expect(job).toMatchObject({ state: 'completed' });
    expect(job?.retry_count).toBeGreaterThan(0);
  });
});
