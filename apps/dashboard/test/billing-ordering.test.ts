import { describe, expect, it } from 'vitest';
import type { Delivery, StripeEventJson } from '@mmw/test-support';
import { ownerWithOrganization, subscriptionOf, useBilling } from './billing-fixtures.ts';

const f = useBilling({ env: () => ({ MMW_WORKER_CONCURRENCY: '4', MMW_WORKER_BATCH_SIZE: '25' }) });

const ACCOUNTS = 20;
const EVENTS_PER_ACCOUNT = 200;
const DELIVERIES = 5_000;
const DUPLICATES = DELIVERIES - ACCOUNTS * EVENTS_PER_ACCOUNT;
const PARALLEL = 16;

/** A seeded generator, so that a failing order can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STEPS = [
  { status: 'active', type: 'invoice.paid' },
  { status: 'active', type: 'customer.subscription.updated' },
  { status: 'past_due', type: 'invoice.payment_failed' },
  { status: 'past_due', type: 'invoice.payment_action_required' },
  { status: 'unpaid', type: 'customer.subscription.updated' },
  { status: 'paused', type: 'customer.subscription.paused' },
  { status: 'active', type: 'customer.subscription.resumed' },
  { status: 'trialing', type: 'customer.subscription.trial_will_end' },
  { status: 'canceled', type: 'customer.subscription.deleted' },
] as const;

describe('Stripe events repeated and out of order', () => {
  it('end 5,000 shuffled deliveries with 20% duplicates in Stripe latest state, one state change per event id at most', async () => {
    const next = random(20261130);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const accounts: Array<{ accountId: string; subscriptionId: string; final: { status: string; plan: string; cancel: boolean } }> = [];
    const unique: StripeEventJson[] = [];

    for (let a = 0; a < ACCOUNTS; a++) {
      const { client, accountId } = await ownerWithOrganization(f, `order-co-${a}`);
      const { url } = await client.billing.checkout.mutate({ accountId, plan: 'pro' });
      const { subscription, events } = f.stub.completeCheckout(url.split('/checkout/')[1] ?? '');
      unique.push(...events);
      let final = { status: subscription.status, plan: 'pro', cancel: false };
      // The subscription's history in Stripe: each change with the event that tells it.
      for (let step = events.length; step < EVENTS_PER_ACCOUNT; step++) {
        const { status, type } = pick(STEPS);
        const plan = next() < 0.5 ? 'pro' : 'team';
        const cancel = next() < 0.2;
        f.stub.updateSubscription(subscription.id, {
          status,
          priceId: plan === 'pro' ? f.stub.prices.pro : f.stub.prices.team,
          cancelAtPeriodEnd: cancel,
          endedAt: status === 'canceled' ? f.now() : null,
        });
        final = { status, plan, cancel };
        unique.push(
          type.startsWith('invoice.')
            ? f.stub.invoiceEvent(type as 'invoice.paid', subscription.id)
            : f.stub.subscriptionEvent(type, subscription.id),
        );
      }
      accounts.push({ accountId, subscriptionId: subscription.id, final });
    }
    expect(unique).toHaveLength(ACCOUNTS * EVENTS_PER_ACCOUNT);
    expect(DUPLICATES).toBe(DELIVERIES * 0.2);

    const deliveries = [...unique, ...Array.from({ length: DUPLICATES }, () => pick(unique))];
    for (let i = deliveries.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [deliveries[i], deliveries[j]] = [deliveries[j] as StripeEventJson, deliveries[i] as StripeEventJson];
    }

    const answers: Delivery[] = [];
    let cursor = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (cursor < deliveries.length) {
          const event = deliveries[cursor++] as StripeEventJson;
          answers.push(await f.deliver(event));
        }
      }),
    );
    expect(answers).toHaveLength(DELIVERIES);
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    expect(answers.filter((a) => a.body.outcome === 'stored')).toHaveLength(unique.length);
    expect(answers.filter((a) => a.body.outcome === 'duplicate')).toHaveLength(DUPLICATES);
    await f.drain();

    // Every event id stored once and processed by exactly one job.
    const [events] = await f.db.query<{ n: string; processed: string }>(
      'select count(*) as n, count(processed_at) as processed from stripe_events',
    );
    expect(Number(events?.n)).toBe(unique.length);
    expect(Number(events?.processed)).toBe(unique.length);
    const jobs = await f.db.query<{ event_id: string; n: string }>(
      `select event_id, count(*) as n from (
         select data->'payload'->>'eventId' as event_id from pgboss.job where name = 'stripe-event'
         union all select data->'payload'->>'eventId' from pgboss.archive where name = 'stripe-event') j
       group by event_id`,
    );
    expect(jobs).toHaveLength(unique.length);
    expect(jobs.filter((job) => Number(job.n) !== 1)).toEqual([]);

    // Each account ends where Stripe is, whatever order its events came in.
    for (const account of accounts) {
      const row = await subscriptionOf(f, account.accountId);
      expect({ status: row.status, plan: row.plan, cancel: row.cancel_at_period_end }).toEqual(account.final);
      expect(row.stripe_subscription_id).toBe(account.subscriptionId);
    }

    // No event id caused more than one change, and every change names the event that caused it.
    const changes = await f.db.query<{ event_id: string | null; n: string }>(
      `select data->>'eventId' as event_id, count(*) as n from audit_events
        where action = 'subscription.changed' and data->>'via' = 'stripe' group by 1`,
    );
    expect(changes.filter((change) => change.event_id === null || Number(change.n) > 1)).toEqual([]);
    const [changed] = await f.db.query<{ n: string }>("select count(*) as n from stripe_events where outcome = 'changed'");
    expect(changes).toHaveLength(Number(changed?.n));
    expect(changes.length).toBeGreaterThanOrEqual(ACCOUNTS);
    const [failed] = await f.db.query<{ n: string }>("select count(*) as n from pgboss.job where name = 'failed-jobs'");
    expect(Number(failed?.n)).toBe(0);
  }, 600_000);
});
