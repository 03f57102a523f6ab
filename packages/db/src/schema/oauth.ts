import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts, apiKeys, projects, users } from './tenancy.ts';

/**
 * An OAuth client MMW knows: registered through dynamic client registration, or a client id
 * metadata document fetched from its https URL (kept as a cache, fetched_at saying how fresh).
 * Global, as users are: it names a program, not a tenant's data; a registered client's secret is
 * kept only as its SHA-256.
 */
export const oauthClients = pgTable('oauth_clients', {
  clientId: text('client_id').primaryKey(),
  kind: text('kind', { enum: ['registered', 'metadata_document'] }).notNull(),
  clientName: text('client_name'),
  redirectUris: text('redirect_uris').array().notNull(),
  tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull().default('none'),
  secretHash: text('secret_hash'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }),
});

/**
 * An authorization code, by the SHA-256 of the code: what the person consented to, waiting for the
 * client's token request. key_id is set when it is exchanged (the grant it made), so a replayed
 * code can revoke what it granted.
 */
export const oauthCodes = pgTable('oauth_codes', {
  codeHash: text('code_hash').primaryKey(),
  accountId: uuid('account_id')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  projectId: uuid('project_id')
    .notNull()
    .references(() => projects.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  clientId: text('client_id').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  scopes: text('scopes').array().notNull(),
  resource: text('resource').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  keyId: uuid('key_id').references(() => apiKeys.id, { onDelete: 'cascade' }),
});

/**
 * Access and refresh tokens, by the SHA-256 of the token. Each belongs to a grant: an api_keys row
 * whose oauth_client_id is set, so a token acts as that key does, and revoking the grant ends them all.
 */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** A refresh token is used once: rotation gives a new one; a second use revokes the grant. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('oauth_tokens_key_idx').on(t.keyId)],
);
