import { sql } from 'drizzle-orm';
import { bigint, date, index, pgSequence, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './tenancy.ts';

/**
 * Every Stripe webhook event of an allowlisted type, stored once by its id: a repeat delivery finds
 * the row and changes nothing. Ids and the type only, never the payload.
 */
export const stripeEvents = pgTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    /** Known once the event's customer is matched to an account. */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    customerId: text('customer_id'),
    subscriptionId: text('subscription_id'),
    /** Set by Checkout to the account that started it. */
    clientReferenceId: text('client_reference_id'),
    /** When Stripe created the event. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Taken from stripe_sync_seq when the event is stored: a sync of its account whose number is
     * higher read Stripe after the event arrived, so the event needs no read of its own.
     */
    receivedSeq: bigint('received_seq', { mode: 'number' })
      .notNull()
      .default(sql`nextval('stripe_sync_seq')`),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** What processing did: synced, unknown_customer, … */
    outcome: text('outcome'),
  },
  (t) => [index('stripe_events_customer_idx').on(t.customerId), index('stripe_events_account_idx').on(t.accountId)],
);

/** Tool calls per account per calendar month (UTC), counted as each call passes the call limits. */
export const accountCallUsage = pgTable(
  'account_call_usage',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The first day of the month. */
    month: date('month', { mode: 'string' }).notNull(),
    calls: bigint('calls', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.month] })],
);

/**
 * Orders reads of Stripe: a sync takes a number before it asks Stripe and writes only if no sync that
 * asked later has written, so a slow answer never overwrites a newer one.
 */
export const stripeSyncSequence = pgSequence('stripe_sync_seq');
