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
 * The workspaces of the caller's project whose rule lets the caller read every record: the
 * workspace's own rule, else the project's default, else "whole organization". Uncorrelated, so
 * PostgreSQL evaluates it once per statement, not once per row.
 */
function openWorkspaces(caller: Caller): SQL {
  return sql`select w.id from workspaces w
    left join visibility_rules wr on wr.workspace_id = w.id
    left join visibility_rules pr on pr.project_id = w.project_id and pr.workspace_id is null
    where w.account_id = ${caller.accountId}::uuid and w.project_id = ${caller.projectId}::uuid and (
      coalesce(wr.mode, pr.mode, 'organization') = 'organization'
      or (coalesce(wr.mode, pr.mode) = 'listed' and (
        ${caller.userId}::uuid = any(case when wr.id is not null then wr.user_ids else pr.user_ids end)
        or (select m.role from memberships m
            where m.account_id = ${caller.accountId}::uuid and m.user_id = ${caller.userId}::uuid
              and m.removed_at is null)
           = any(case when wr.id is not null then wr.roles else pr.roles end))))`;
}

/** Authors whose records the caller reads as their own: the caller and those who handed over to them. */
function ownAuthors(caller: Caller): SQL {
  return sql`select ${caller.userId}::uuid
    union all
    select h.from_user_id from handovers h
    where h.account_id = ${caller.accountId}::uuid and h.to_user_id = ${caller.userId}::uuid`;
}

/**
 * The condition, for the statement that reads records, under which the caller may see a record:
 * the record is in the caller's account and project, and either the caller reads as its author
 * (wrote it, or received the author's knowledge in a handover), or the workspace's rule lets the
 * caller read (see docs/visibility.md). Every read path (search, validate_memory, status
 * inheritance, graph previews, archivist, dashboard) puts it in its own statement.
 */
export function visibleRecords(caller: Caller, table: RecordAccessColumns): SQL {
  return sql`(${table.accountId} = ${caller.accountId}::uuid and ${table.projectId} = ${caller.projectId}::uuid
    and (${table.authorUserId} in (${ownAuthors(caller)}) or ${table.workspaceId} in (${openWorkspaces(caller)})))`;
}

/** Records written by someone whose knowledge was handed over: reads of them are audited as counts. */
export function handedOverRecords(accountId: string, table: Pick<RecordAccessColumns, 'authorUserId'>): SQL {
  return sql`${table.authorUserId} in (select h.from_user_id from handovers h where h.account_id = ${accountId}::uuid)`;
}
