import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, projects, users } from './tenancy.ts';
import { workspaces } from './memory.ts';

/**
 * A dashboard sign-in. The id is the SHA-256 (hex) of the token in the cookie; the token itself is
 * never stored. Read before any tenant is known, through the session_by_hash and session_of_user policies.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Password accepted, second factor not yet given: this session signs in to nothing else. */
    secondFactorPending: boolean('second_factor_pending').notNull().default(false),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed sign-ins per opaque bucket (a hash of the email or of the address), shared by every replica. */
export const loginAttempts = pgTable('login_attempts', {
  bucket: text('bucket').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** A link that proves an address: the SHA-256 (hex) of its token, for one user and one address. */
export const emailVerifications = pgTable(
  'email_verifications',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('email_verifications_user_idx').on(t.userId)],
);

/**
 * A "forgot password" link: the SHA-256 (hex) of its token, for one user and the address it was
 * mailed to. Used once (the row is deleted), valid for a short while.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('password_resets_user_idx').on(t.userId)],
);

export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: ['owner', 'admin', 'member'] }).notNull(),
    /** SHA-256 (hex) of the token in the link. */
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: uuid('invited_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: uuid('accepted_by').references(() => users.id),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('invitations_account_idx').on(t.accountId, t.createdAt.desc())],
);

export const visibilityModes = ['organization', 'listed', 'author'] as const;
export type VisibilityMode = (typeof visibilityModes)[number];

/**
 * Who may read a workspace's records. A row without workspace_id is the project's default; a
 * workspace's own row overrides it; with neither, the whole organization reads.
 */
export const visibilityRules = pgTable(
  'visibility_rules',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    mode: text('mode', { enum: visibilityModes }).notNull(),
    /** For 'listed': members who read. */
    userIds: uuid('user_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** For 'listed': roles whose members read. */
    roles: text('roles')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    updatedBy: uuid('updated_by').references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('visibility_rules_project_default_idx')
      .on(t.projectId)
      .where(sql`workspace_id IS NULL`),
    uniqueIndex('visibility_rules_workspace_idx')
      .on(t.workspaceId)
      .where(sql`workspace_id IS NOT NULL`),
  ],
);

/** The records of a member who left read, for visibility, as if the receiver had written them. */
export const handovers = pgTable(
  'handovers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id),
    toUserId: uuid('to_user_id')
      .notNull()
      .references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('handovers_edge_idx').on(t.accountId, t.fromUserId, t.toUserId),
    index('handovers_receiver_idx').on(t.accountId, t.toUserId),
  ],
);
