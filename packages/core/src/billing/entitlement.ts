import { messages } from '../errors.ts';
import type { SubscriptionStatus } from './subscription-status.ts';

export type Access = 'full' | 'read_only' | 'none';

export interface SubscriptionFacts {
  status: SubscriptionStatus;
  currentPeriodEnd: Date | null;
  /** When the status was last set: the end of a subscription that ended without a period end. */
  updatedAt: Date;
}

export interface Entitlement {
  access: Access;
  /** A `[MMW Notice]: …` text to show with results or as the error. */
  notice: string | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const notices = {
  none: messages.notice(
    'this account has no active subscription, so memory is unavailable. An owner or admin can subscribe in the MMW dashboard under Billing.',
  ),
  incomplete: messages.notice(
    'the subscription is not active yet because its first payment is not complete. Finish the payment in the MMW dashboard under Billing.',
  ),
  pastDue: messages.notice(
    'the last payment failed. Memory keeps working for now; update the payment method in the MMW dashboard under Billing.',
  ),
  readOnly: (until: Date) =>
    messages.notice(
      `the subscription has ended, so memory is read-only until ${until.toISOString().slice(0, 10)}: search and validate_memory work, remember and forget do not. Renew it in the MMW dashboard under Billing.`,
    ),
  expired: messages.notice(
    'the subscription has ended and its grace period is over, so memory is unavailable. Renew it in the MMW dashboard under Billing.',
  ),
};

/**
 * What a subscription allows now. Active and trialing: everything. past_due: everything, with a notice.
 * Ended (canceled, unpaid, incomplete_expired, paused, or past its period end): read-only for the
 * grace period counted from the period end, then nothing. incomplete: not provisioned yet.
 */
export function entitlementFor(subscription: SubscriptionFacts | undefined, graceDays: number, now: Date): Entitlement {
  if (subscription === undefined || subscription.status === 'none') return { access: 'none', notice: notices.none };
  const { status, currentPeriodEnd } = subscription;
  if (status === 'incomplete') return { access: 'none', notice: notices.incomplete };
  const running = status === 'active' || status === 'trialing' || status === 'past_due';
  if (running && (currentPeriodEnd === null || currentPeriodEnd > now)) {
    return { access: 'full', notice: status === 'past_due' ? notices.pastDue : undefined };
  }
  // Ended: grace counts from the period end, or from when the status was set if there is none.
  return graceFrom(currentPeriodEnd ?? subscription.updatedAt, now, graceDays);
}

function graceFrom(endedAt: Date, now: Date, graceDays: number): Entitlement {
  const graceEnd = new Date(endedAt.getTime() + graceDays * DAY_MS);
  return graceEnd > now ? { access: 'read_only', notice: notices.readOnly(graceEnd) } : { access: 'none', notice: notices.expired };
}
