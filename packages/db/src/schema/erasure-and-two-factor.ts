import { bigint, bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './tenancy.ts';

/**
 * A user's TOTP secret (base32), written at enrolment and never returned after it. confirmed_at is
 * set by the first correct code. last_used_step refuses a code used once from being used again;
 * failures in the window since window_start throttle code attempts.
 */
export const twoFactorCredentials = pgTable('two_factor_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One-time recovery codes of two-factor sign-in: the SHA-256 of each, used once. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/**
 * What is kept of a deleted account, outside any tenant: its id, its kind, who deleted it and when.
 * No name, slug, email or content (docs/security-erasure-2fa.md).
 */
export const accountDeletions = pgTable('account_deletions', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  accountId: uuid('account_id').notNull(),
  kind: text('kind', { enum: ['personal', 'organization'] }).notNull(),
  deletedBy: uuid('deleted_by').notNull(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull().defaultNow(),
});
