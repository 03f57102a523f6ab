import { stripeEvents, withSystem, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import type { JobDefinition, JobQueue } from '../jobs/job-queue.ts';
import type { BillingGateway } from './billing-gateway.ts';

/** The event types MMW acts on; any other is acknowledged and dropped. */
export const STRIPE_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
] as const;

const allowed = new Set<string>(STRIPE_EVENT_TYPES);

export type WebhookOutcome = 'stored' | 'duplicate' | 'ignored';

export interface WebhookDeps {
  db: Db;
  gateway: BillingGateway;
  jobs: JobQueue;
  stripeEventJob: JobDefinition<{ eventId: string }>;
  now: () => Date;
}

/**
 * A webhook delivery: verified against the raw body, stored once by event id with its processing
 * job in the same transaction, and answered at once. A repeat finds the row and adds nothing.
 */
export async function receiveStripeWebhook(
  deps: WebhookDeps,
  rawBody: Buffer,
  signature: string | undefined,
): Promise<{ outcome: WebhookOutcome; eventId: string }> {
  if (signature === undefined || signature === '') throw new AppError('invalid_input', 'the Stripe-Signature header is missing');
  const event = deps.gateway.verifyWebhook(rawBody, signature, deps.now());
  if (!allowed.has(event.type)) return { outcome: 'ignored', eventId: event.id };
  return withSystem(deps.db, async (tx) => {
    const stored = await tx
      .insert(stripeEvents)
      .values({
        id: event.id,
        type: event.type,
        customerId: event.customerId,
        subscriptionId: event.subscriptionId,
        clientReferenceId: event.clientReferenceId,
        createdAt: event.created,
      })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (stored.length === 0) return { outcome: 'duplicate' as const, eventId: event.id };
    await deps.jobs.enqueue(tx, deps.stripeEventJob, { eventId: event.id });
    return { outcome: 'stored' as const, eventId: event.id };
  });
}
