import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, apiKeys, projects, users } from './tenancy.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const sessionTools = ['claude-code', 'codex'] as const;
export const sessionRoles = ['user', 'assistant', 'tool'] as const;

/** A session of an assistant on a member's computer, uploaded by mmw-agent; it belongs to its uploader. */
export const agentSessions = pgTable(
  'agent_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    uploaderUserId: uuid('uploader_user_id')
      .notNull()
      .references(() => users.id),
    tool: text('tool', { enum: sessionTools }).notNull(),
    /** The session's own id on the computer (Claude Code's sessionId, Codex's session id). */
    externalId: text('external_id').notNull(),
    /** The working folder the session ran in, as the computer named it. */
    projectPath: text('project_path'),
    messageCount: integer('message_count').notNull().default(0),
    firstMessageAt: timestamp('first_message_at', { withTimezone: true }),
    lastMessageAt: timestamp('last_message_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('agent_sessions_external_idx').on(t.projectId, t.uploaderUserId, t.tool, t.externalId),
    index('agent_sessions_account_idx').on(t.accountId),
  ],
);

/** One message of an uploaded session: redacted on the computer and again on the server. */
export const sessionMessages = pgTable(
  'session_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => agentSessions.id, { onDelete: 'cascade' }),
    uploaderUserId: uuid('uploader_user_id').notNull(),
    /** Said by the agent for each message, from what the message is: a repeat of it is stored once. */
    messageKey: text('message_key').notNull(),
    role: text('role', { enum: sessionRoles }).notNull(),
    content: text('content').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(
        sql`to_tsvector('simple'::regconfig, regexp_replace(lower(content), '[^[:alnum:]]+', ' ', 'g')) || to_tsvector('english'::regconfig, regexp_replace(lower(content), '[^[:alnum:]]+', ' ', 'g'))`,
      ),
  },
  (t) => [
    uniqueIndex('session_messages_key_idx').on(t.sessionId, t.messageKey),
    index('session_messages_tsv_idx').using('gin', t.projectId, t.uploaderUserId, t.tsv),
    index('session_messages_account_idx').on(t.accountId),
  ],
);

/** Upload batches already stored: a batch sent again is answered without being stored or counted again. */
export const sessionUploadBatches = pgTable(
  'session_upload_batches',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    batchId: text('batch_id').notNull(),
    keyId: uuid('key_id').references(() => apiKeys.id),
    stored: integer('stored').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.batchId] })],
);
