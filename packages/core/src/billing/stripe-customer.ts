import { and, eq, isNull } from 'drizzle-orm';
import { accounts, subscriptions, withSystem, withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import type { BillingGateway } from './billing-gateway.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The account's Stripe customer, created on its first Checkout. */
export async function ensureCustomer(db: Db, gateway: BillingGateway, accountId: string, actorUserId: string): Promise<string> {
  const [known] = await withTenant(db, accountId, (tx) =>
    tx
      .select({ customerId: subscriptions.stripeCustomerId, name: accounts.name })
      .from(accounts)
      .leftJoin(subscriptions, eq(subscriptions.accountId, accounts.id))
      .where(eq(accounts.id, accountId)),
  );
  if (!known) throw new AppError('not_found', 'account not found');
  if (known.customerId) return known.customerId;
  // Stripe returns the same customer to a concurrent repeat (idempotency key per account).
  const customer = await gateway.createCustomer({ accountId, name: known.name });
  return withTenant(db, accountId, async (tx) => {
    const [linked] = await tx
      .update(subscriptions)
      .set({ stripeCustomerId: customer.id })
      .where(and(eq(subscriptions.accountId, accountId), isNull(subscriptions.stripeCustomerId)))
      .returning({ customerId: subscriptions.stripeCustomerId });
    if (linked?.customerId) {
      await recordAudit(tx, {
        accountId,
        action: 'billing.customer_created',
        actorUserId,
        targetType: 'stripe_customer',
        targetId: customer.id,
      });
      return linked.customerId;
    }
    const [row] = await tx
      .select({ customerId: subscriptions.stripeCustomerId })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, accountId));
    if (!row?.customerId) throw new AppError('conflict', 'the account has no subscription row to bill');
    return row.customerId;
  });
}

/**
 * The account an event's customer belongs to. Customers MMW created are linked when created; a
 * customer met first in an event (the link was lost) is linked through Checkout's
 * client_reference_id or the customer's account_id metadata, never over another customer.
 */
export async function accountForCustomer(
  db: Db,
  gateway: BillingGateway,
  event: { customerId: string | null; clientReferenceId: string | null; id: string },
): Promise<string | undefined> {
  const customerId = event.customerId;
  if (customerId === null) return undefined;
  const [known] = await withSystem(db, (tx) =>
    tx.select({ accountId: subscriptions.accountId }).from(subscriptions).where(eq(subscriptions.stripeCustomerId, customerId)),
  );
  if (known) return known.accountId;
  const claimed = event.clientReferenceId ?? (await gateway.customerAccountId(customerId));
  if (claimed === undefined || !UUID.test(claimed)) return undefined;
  return withSystem(db, async (tx) => {
    const [linked] = await tx
      .update(subscriptions)
      .set({ stripeCustomerId: customerId })
      .where(and(eq(subscriptions.accountId, claimed), isNull(subscriptions.stripeCustomerId)))
      .returning({ accountId: subscriptions.accountId });
    if (!linked) return undefined;
    await recordAudit(tx, {
      accountId: linked.accountId,
      action: 'billing.customer_linked',
      targetType: 'stripe_customer',
      targetId: customerId,
      data: { eventId: event.id },
    });
    return linked.accountId;
  });
}
