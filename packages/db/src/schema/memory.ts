import { sql } from 'drizzle-orm';
import {
  customType,
  index,
  pgTable,
  doublePrecision,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts, apiKeys, projects, users } from './tenancy.ts';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('workspaces_project_name_idx').on(t.projectId, t.name),
    index('workspaces_account_name_idx').on(t.accountId, t.name),
  ],
);

export const records = pgTable(
  'records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    authorUserId: uuid('author_user_id').references(() => users.id),
    keyId: uuid('key_id').references(() => apiKeys.id),
    content: text('content').notNull(),
    source: text('source').notNull(),
    sourceId: text('source_id'),
    sourceHash: text('source_hash'),
    sourceRevision: text('source_revision'),
    factKey: text('fact_key'),
    confidence: doublePrecision('confidence').notNull().default(0.5),
    scope: text('scope'),
    derivedFrom: uuid('derived_from')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    supersededBy: uuid('superseded_by'),
    /** Set by the archivist: 'stale' (outdated) or 'refined', with its reason. */
    archivistMark: text('archivist_mark', { enum: ['stale', 'refined'] }),
    archivistReason: text('archivist_reason'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // Words of content, source and source_id, split on anything that is not a letter or digit,
    // so that "app-staging" and "docs/deploy.md" are found by their parts: each word as written
    // (found by prefix) and its English Snowball stem (found by a query word of the same stem).
    // Each word carries its workspace's tag (mmw_workspace_words, migration 0032), so that the word
    // index holds one posting list per workspace and word: a search reads its own workspace's.
    tsv: tsvector('tsv')
      .notNull()
      .generatedAlwaysAs(
        sql`mmw_workspace_words(workspace_id, to_tsvector('simple'::regconfig, regexp_replace(lower(content || ' ' || source || ' ' || coalesce(source_id, '')), '[^[:alnum:]]+', ' ', 'g')) || to_tsvector('english'::regconfig, regexp_replace(lower(content || ' ' || source || ' ' || coalesce(source_id, '')), '[^[:alnum:]]+', ' ', 'g')))`,
      ),
    // The words of fact_key, for the second, expanded pass of search, tagged as tsv.
    keyTsv: tsvector('key_tsv')
      .notNull()
      .generatedAlwaysAs(
        sql`mmw_workspace_words(workspace_id, to_tsvector('simple'::regconfig, regexp_replace(lower(coalesce(fact_key, '')), '[^[:alnum:]]+', ' ', 'g')))`,
      ),
  },
  (t) => [
    index('records_key_tsv_idx')
      .using('gin', t.keyTsv)
      .where(sql`deleted_at IS NULL AND fact_key IS NOT NULL`),
    index('records_tsv_idx')
      .using('gin', t.tsv)
      .where(sql`deleted_at IS NULL`),
    // Newest first, in the exact order search and the archivist read (updated_at desc, id desc, nulls
    // first as PostgreSQL's desc means), so a scan stops after `limit` rows instead of sorting them all.
    index('records_ws_recent_idx')
      .on(t.workspaceId, t.updatedAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL`),
    index('records_ws_fact_key_idx')
      .on(t.workspaceId, t.factKey)
      .where(sql`deleted_at IS NULL AND fact_key IS NOT NULL`),
    index('records_ws_source_idx')
      .on(t.workspaceId, t.sourceId)
      .where(sql`deleted_at IS NULL AND source_id IS NOT NULL`),
    index('records_account_idx').on(t.accountId),
  ],
);

export const recordRelations = pgTable(
  'record_relations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    fromRecordId: uuid('from_record_id')
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    toRecordId: uuid('to_record_id')
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    relation: text('relation', { enum: ['relates_to', 'fixes_issue', 'supersedes'] }).notNull(),
    weight: doublePrecision('weight').notNull(),
    reason: text('reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('record_relations_edge_idx').on(t.fromRecordId, t.toRecordId, t.relation),
    index('record_relations_to_idx').on(t.toRecordId),
  ],
);

/**
 * Records stored and not yet handed to the archivist's queue: mmw_remember() adds one in the
 * record's own statement, and the worker's intake moves them into pg-boss (core's
 * jobs/archivist-intake.ts). Ids only, like the jobs themselves.
 */
export const archivistPending = pgTable('archivist_pending', {
  recordId: uuid('record_id')
    .primaryKey()
    .references(() => records.id, { onDelete: 'cascade' }),
  /** The record's account, for row-level security; the record's own deletion takes this row with it. */
  accountId: uuid('account_id').notNull(),
});
