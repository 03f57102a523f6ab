import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Caller } from '../caller.ts';

/** The columns of a records table (or an alias of it) that visibility looks at. */
export interface RecordAccessColumns {
  accountId: AnyColumn;
  projectId: AnyColumn;
  workspaceId: AnyColumn;
  authorUserId: AnyColumn;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A caller's id as a SQL literal. The ids come from the server (key or session), never from a
 * request; checked anyway, since they are written into the statement's text.
 */
function idLiteral(id: string): string {
  if (!UUID.test(id)) throw new Error('caller ids must be uuids');
  return `'${id.toLowerCase()}'::uuid`;
}

/**
 * The condition, for the statement that reads records, under which the caller may see a record:
 * the record is in the caller's account and project, and either the caller reads as its author
 * (wrote it, or received the author's knowledge in a handover), or the workspace's rule lets the
 * caller read (see docs/visibility.md). Every read path (search, validate_memory, status
 * inheritance, graph previews, archivist, dashboard) puts it in its own statement. The caller's
 * side, who reads as an author and which workspaces are open to the caller, is looked up once per
 * statement by two SQL functions (migration 0034), so the planner sees two arrays, not the joins
 * behind them. It is one piece of SQL text: drizzle renders a statement piece by piece, and a few
 * pieces instead of dozens save a fifth of a millisecond per statement, several times per search.
 */
export function visibleRecords(caller: Caller, table: RecordAccessColumns): SQL {
  const account = idLiteral(caller.accountId);
  const project = idLiteral(caller.projectId);
  const user = idLiteral(caller.userId);
  return sql.join([
    sql.raw('('),
    table.accountId,
    sql.raw(` = ${account} and `),
    table.projectId,
    sql.raw(` = ${project} and (`),
    table.authorUserId,
    sql.raw(` = any((select mmw_reading_authors(${account}, ${user}))::uuid[]) or `),
    table.workspaceId,
    sql.raw(` = any((select mmw_open_workspaces(${account}, ${project}, ${user}))::uuid[])))`),
  ]);
}

/** Records written by someone whose knowledge was handed over: reads of them are audited as counts. */
export function handedOverRecords(accountId: string, table: Pick<RecordAccessColumns, 'authorUserId'>): SQL {
  return sql`${table.authorUserId} in (select h.from_user_id from handovers h where h.account_id = ${accountId}::uuid)`;
}
