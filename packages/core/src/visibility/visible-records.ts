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
 * The workspaces of the caller's project whose rule lets the caller read every record: the
 * workspace's own rule, else the project's default, else "whole organization". Uncorrelated, so
 * PostgreSQL evaluates it once per statement, not once per row.
 */
function openWorkspaces(account: string, project: string, user: string): string {
  return `select w.id from workspaces w
    left join visibility_rules wr on wr.workspace_id = w.id
    left join visibility_rules pr on pr.project_id = w.project_id and pr.workspace_id is null
    where w.account_id = ${account} and w.project_id = ${project} and (
      coalesce(wr.mode, pr.mode, 'organization') = 'organization'
      or (coalesce(wr.mode, pr.mode) = 'listed' and (
        ${user} = any(case when wr.id is not null then wr.user_ids else pr.user_ids end)
        or (select m.role from memberships m
            where m.account_id = ${account} and m.user_id = ${user} and m.removed_at is null)
           = any(case when wr.id is not null then wr.roles else pr.roles end))))`;
}

/** Authors whose records the caller reads as their own: the caller and those who handed over to them. */
function ownAuthors(account: string, user: string): string {
  return `select ${user}
    union all
    select h.from_user_id from handovers h where h.account_id = ${account} and h.to_user_id = ${user}`;
}

/**
 * The condition, for the statement that reads records, under which the caller may see a record:
 * the record is in the caller's account and project, and either the caller reads as its author
 * (wrote it, or received the author's knowledge in a handover), or the workspace's rule lets the
 * caller read (see docs/visibility.md). Every read path (search, validate_memory, status
 * inheritance, graph previews, archivist, dashboard) puts it in its own statement. The caller's
 * part is one piece of SQL text: drizzle renders a statement piece by piece, and a few pieces
 * instead of dozens save a fifth of a millisecond per statement, several times per search.
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
    sql.raw(` in (${ownAuthors(account, user)}) or `),
    table.workspaceId,
    sql.raw(` in (${openWorkspaces(account, project, user)})))`),
  ]);
}

/** Records written by someone whose knowledge was handed over: reads of them are audited as counts. */
export function handedOverRecords(accountId: string, table: Pick<RecordAccessColumns, 'authorUserId'>): SQL {
  return sql`${table.authorUserId} in (select h.from_user_id from handovers h where h.account_id = ${accountId}::uuid)`;
}
