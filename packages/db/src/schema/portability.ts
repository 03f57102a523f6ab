import { pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './tenancy.ts';

/**
 * What an import made of each record of an export (docs/export-format.md): the record's id in the
 * exporting instance and account, and the id it was given here. Importing the same file again finds
 * its rows and changes nothing.
 */
export const importMappings = pgTable(
  'import_mappings',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The exporting instance and account, as the export's first line names them: `instance/account_id`. */
    source: text('source').notNull(),
    originalId: uuid('original_id').notNull(),
    newId: uuid('new_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.source, t.originalId] })],
);
