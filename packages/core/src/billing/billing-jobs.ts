import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { stripeEvents, subscriptions, withSystem } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import type { JobDefinition, JobQueue } from '../jobs/job-queue.ts';
import { scheduledRunId } from '../jobs/scheduled-run-id.ts';
import { accountForCustomer } from './stripe-customer.ts';
import { syncAccountFromStripe, type SyncDeps } from './sync-account.ts';

export const STRIPE_EVENT_QUEUE = 'stripe-event';
export const BILLING_SYNC_QUEUE = 'billing-sync';
export const BILLING_RECONCILE_QUEUE = 'billing-reconcile';

/** The reconciliation runs daily at this hour (UTC), when traffic is low. */
const RECONCILE_HOUR_UTC = 3;
const FAN_OUT_CHUNK = 500;

const stripeEventPayload = z.object({ eventId: z.string().regex(/^evt_[A-Za-z0-9_]{1,250}$/) });
const syncPayload = z.object({ accountId: z.uuid(), via: z.enum(['reconciliation', 'dashboard']) });
const reconcilePayload = z.object({ day: z.iso.date() });

export type StripeEventPayload = z.infer<typeof stripeEventPayload>;
export type SyncPayload = z.infer<typeof syncPayload>;
export type ReconcilePayload = z.infer<typeof reconcilePayload>;

/** Events worth a line in the audit log of their own, beside the change they may cause. */
const NOTED: Record<string, string> = {
  'customer.subscription.trial_will_end': 'billing.trial_will_end',
  'invoice.payment_failed': 'billing.payment_failed',
  'invoice.payment_action_required': 'billing.payment_action_required',
};

/** The first reconciliation hour after the given moment. */
export function nextReconciliationAt(after: Date): Date {
  const at = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), RECONCILE_HOUR_UTC));
  if (at.getTime() <= after.getTime()) at.setUTCDate(at.getUTCDate() + 1);
  return at;
}

export interface BillingJobs {
  stripeEvent: JobDefinition<StripeEventPayload>;
  sync: JobDefinition<SyncPayload>;
  reconcile: JobDefinition<ReconcilePayload>;
  /** Schedules the next daily reconciliation (idempotent). */
  scheduleReconciliation(after: Date): Promise<void>;
  /** Runs a reconciliation now, beside the daily one. */
  reconcileNow(): Promise<void>;
}

export function billingJobs(deps: SyncDeps & { jobs: JobQueue }): BillingJobs {
  const { db, gateway, jobs } = deps;

  const sync: JobDefinition<SyncPayload> = {
    name: BILLING_SYNC_QUEUE,
    payload: syncPayload,
    async handle({ accountId, via }) {
      await syncAccountFromStripe(deps, accountId, { via });
    },
  };

  // One job id per day, so any number of workers and repeats schedule a day's run once.
  const scheduleReconciliation = async (after: Date) => {
    const at = nextReconciliationAt(after);
    const day = at.toISOString().slice(0, 10);
    await jobs.enqueue(db, reconcile, { day }, { id: scheduledRunId(BILLING_RECONCILE_QUEUE, day), startAfter: at });
  };

  const reconcile: JobDefinition<ReconcilePayload> = {
    name: BILLING_RECONCILE_QUEUE,
    payload: reconcilePayload,
    async handle({ day }) {
      // Across tenants: every account Stripe knows. Each account's sync is its own job, retried alone.
      const billed = await withSystem(db, (tx) =>
        tx.select({ accountId: subscriptions.accountId }).from(subscriptions).where(isNotNull(subscriptions.stripeCustomerId)),
      );
      for (let i = 0; i < billed.length; i += FAN_OUT_CHUNK) {
        const chunk = billed.slice(i, i + FAN_OUT_CHUNK);
        await withSystem(db, async (tx) => {
          for (const { accountId } of chunk) await jobs.enqueue(tx, sync, { accountId, via: 'reconciliation' });
        });
      }
      await scheduleReconciliation(new Date(`${day}T${String(RECONCILE_HOUR_UTC).padStart(2, '0')}:00:00Z`));
    },
  };

  const stripeEvent: JobDefinition<StripeEventPayload> = {
    name: STRIPE_EVENT_QUEUE,
    payload: stripeEventPayload,
    async handle({ eventId }) {
      // The event, and how far its customer's account has been synced since it arrived.
      const [found] = await withSystem(db, (tx) =>
        tx
          .select({ event: stripeEvents, accountId: subscriptions.accountId, syncSeq: subscriptions.stripeSyncSeq })
          .from(stripeEvents)
          .leftJoin(subscriptions, eq(subscriptions.stripeCustomerId, stripeEvents.customerId))
          .where(eq(stripeEvents.id, eventId)),
      );
      if (!found || found.event.processedAt !== null) return;
      const event = found.event;
      let accountId = found.accountId ?? undefined;
      let outcome: string;
      if (accountId !== undefined && found.syncSeq !== null && found.syncSeq > event.receivedSeq) {
        // A sync read Stripe after this event arrived: its state already includes what the event tells.
        outcome = 'covered';
      } else {
        accountId ??= await accountForCustomer(db, gateway, event);
        outcome =
          accountId === undefined ? 'unknown_customer' : await syncAccountFromStripe(deps, accountId, { via: 'stripe', eventId });
      }
      await withSystem(db, async (tx) => {
        const marked = await tx
          .update(stripeEvents)
          .set({ processedAt: sql`now()`, outcome, accountId: accountId ?? null })
          .where(and(eq(stripeEvents.id, eventId), isNull(stripeEvents.processedAt)))
          .returning({ id: stripeEvents.id });
        const action = NOTED[event.type];
        if (marked.length > 0 && accountId !== undefined && action !== undefined) {
          await recordAudit(tx, { accountId, action, targetType: 'stripe_event', targetId: eventId });
        }
      });
    },
  };

  return {
    stripeEvent,
    sync,
    reconcile,
    scheduleReconciliation,
    reconcileNow: () => jobs.enqueue(db, reconcile, { day: new Date().toISOString().slice(0, 10) }),
  };
}
