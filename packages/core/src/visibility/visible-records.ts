import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Caller } from '../caller.ts';

/** The columns of a records table (or an alias of it) that visibility looks at. */
export interface RecordAccessColumns {
  accountId: AnyColumn;
  projectId: AnyColumn;
  workspaceId: AnyColumn;
  authorUserId: AnyColumn;
}

/**
 * The condition, for the statement that reads records, under which the caller may see a record.
 * Every read path (search, validate_memory, status inheritance, graph previews, archivist,
 * dashboard) puts it in its own statement.
 */
export function visibleRecords(caller: Caller, table: RecordAccessColumns): SQL {
  return sql`(${table.accountId} = ${caller.accountId} and ${table.projectId} = ${caller.projectId})`;
}
