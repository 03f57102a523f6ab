import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { projects, workspaces, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import { memberCaller, type Member } from '../orgs/member.ts';
import { visibleRecords, type RecordAccessColumns } from '../visibility/visible-records.ts';

/** What an export covers: the whole account, one project, or one workspace (of one project). */
export interface ExportScope {
  project?: string | undefined;
  workspace?: string | undefined;
}

export interface ResolvedScope {
  projectIds: string[];
  workspaceId: string | undefined;
}

/** The projects (and workspace) an export covers, by name; an unknown name is "not found". */
export async function resolveExportScope(tx: Db, accountId: string, scope: ExportScope): Promise<ResolvedScope> {
  const found = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.accountId, accountId), scope.project === undefined ? undefined : eq(projects.name, scope.project)));
  if (scope.project !== undefined && found.length === 0) throw new AppError('not_found', `project ${scope.project} not found`);
  const projectIds = found.map((row) => row.id);
  if (scope.workspace === undefined) return { projectIds, workspaceId: undefined };
  const [workspace] =
    projectIds.length === 0
      ? []
      : await tx
          .select({ id: workspaces.id, projectId: workspaces.projectId })
          .from(workspaces)
          .where(
            and(eq(workspaces.accountId, accountId), inArray(workspaces.projectId, projectIds), eq(workspaces.name, scope.workspace)),
          )
          .limit(1);
  if (workspace === undefined) throw new AppError('not_found', `workspace ${scope.workspace} not found`);
  return { projectIds: [workspace.projectId], workspaceId: workspace.id };
}

/** Records of the account inside the scope, whoever may read them. */
export function inScope(accountId: string, scope: ResolvedScope, table: RecordAccessColumns): SQL {
  return and(
    sql`${table.accountId} = ${accountId}::uuid`,
    scope.projectIds.length === 0 ? sql`false` : inArray(table.projectId, scope.projectIds),
    scope.workspaceId === undefined ? undefined : sql`${table.workspaceId} = ${scope.workspaceId}::uuid`,
  ) ?? sql`false`;
}

/**
 * Records inside the scope that the exporter may read: core's visibility rule (visible-records.ts),
 * asked for each project of the scope, since a caller reads one project at a time.
 */
export function exportable(exporter: Member, scope: ResolvedScope, table: RecordAccessColumns): SQL {
  if (scope.projectIds.length === 0) return sql`false`;
  return (
    and(
      inScope(exporter.accountId, scope, table),
      or(...scope.projectIds.map((projectId) => visibleRecords(memberCaller(exporter, projectId), table))),
    ) ?? sql`false`
  );
}
