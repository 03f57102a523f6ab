import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A personal or organization account: the tenant. */
export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // The policies compare every tenant table's account_id with the transaction's tenant;
    // accounts carries its own id there too so one policy shape fits all tables.
    accountId: uuid('account_id')
      .notNull()
      .generatedAlwaysAs(sql`id`),
    kind: text('kind', { enum: ['personal', 'organization'] }).notNull(),
    slug: text('slug').notNull().unique(),
    name: text('name').notNull(),
    /** Set by an owner: members without two-factor sign-in are asked to enrol before using the account. */
    requireTwoFactor: boolean('require_two_factor').notNull().default(false),
    /**
     * An organization's creator while they stay a member: two organizations they hold this way never
     * share a name (without case), even when both are created at once. Cleared when they leave.
     */
    nameHolderUserId: uuid('name_holder_user_id').references((): AnyPgColumn => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_organization_name_per_holder_idx')
      .on(t.nameHolderUserId, sql`lower(${t.name})`)
      .where(sql`${t.kind} = 'organization'`),
  ],
);

/** A person who signs in to the dashboard; a global identity, member of many accounts. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name'),
  passwordHash: text('password_hash'),
  /** When two-factor sign-in was confirmed; null while it is off. Its secret is in two_factor_credentials. */
  twoFactorEnabledAt: timestamp('two_factor_enabled_at', { withTimezone: true }),
  /** When the person proved they read mail at this address; null until then (an invitation waits for it). */
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
  /**
   * When the person's one trial ends, set when they first start one; every organization they create,
   * and a plan's trial at Checkout, shares it. Null: they have not had a trial.
   */
  trialEndsAt: timestamp('trial_ends_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const memberships = pgTable(
  'memberships',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'member'] }).notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const projects = pgTable(
  'projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('projects_account_name_idx').on(t.accountId, t.name)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    /** SHA-256 of the whole key, hex; the key itself is never stored. */
    keyHash: text('key_hash').notNull().unique(),
    /** The first characters of the key, shown to people to tell keys apart. */
    prefix: text('prefix').notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** The key stops working at this time; null: it works until revoked. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** A read-only key may search and validate, never remember or forget. */
    readOnly: boolean('read_only').notNull().default(false),
    /** Set when the key is an OAuth grant: the connected client it was granted to. */
    oauthClientId: text('oauth_client_id'),
    /** An OAuth grant's scopes (memory:read, memory:write); null for an ordinary key. */
    oauthScopes: text('oauth_scopes').array(),
    /** An OAuth grant's audience: the MCP endpoint its tokens are for. */
    oauthResource: text('oauth_resource'),
  },
  (t) => [index('api_keys_project_idx').on(t.projectId), index('api_keys_prefix_idx').on(t.prefix)],
);

export const subscriptions = pgTable('subscriptions', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  status: text('status').notNull(),
  plan: text('plan').notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
  stripeCustomerId: text('stripe_customer_id').unique(),
  stripeSubscriptionId: text('stripe_subscription_id'),
  recordLimit: integer('record_limit'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** Stripe's subscription ends at the period end (the customer canceled it in the portal). */
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  /** The stripe_sync_seq number of the last sync from Stripe that wrote this row. */
  stripeSyncSeq: bigint('stripe_sync_seq', { mode: 'number' }),
});

/**
 * A key an admin sets up for a colleague: it becomes a key only when the colleague accepts, and is
 * theirs from then on (a key always acts for the person who issued it).
 */
export const keyRequests = pgTable(
  'key_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    readOnly: boolean('read_only').notNull().default(false),
    /** How long the key works once accepted, in days; null: until revoked. */
    expiresInDays: integer('expires_in_days'),
    requestedBy: uuid('requested_by').references(() => users.id),
    createdAt: createdAt(),
    /** The key the colleague issued on accepting, or null while pending. */
    keyId: uuid('key_id').references(() => apiKeys.id),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [index('key_requests_user_idx').on(t.accountId, t.userId)],
);
