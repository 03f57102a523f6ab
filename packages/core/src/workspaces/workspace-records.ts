import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { records, workspaces, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { createBuiltInExpander, type QueryExpander } from '../archivist/query-expansion.ts';
import { describeRecords } from '../memory/describe-records.ts';
import { forgetRecord, type ForgetOutput } from '../memory/forget.ts';
import { recordColumns } from '../memory/record-columns.ts';
import { validateWorkspaceName } from '../memory/record-input.ts';
import type { RecordView } from '../memory/record-view.ts';
import { searchRecords, type SearchInput, type SearchOutput } from '../memory/search.ts';
import { findWorkspace } from '../memory/workspaces.ts';
import { memberCaller, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';
import { visibleRecords } from '../visibility/visible-records.ts';

export const workspaceSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  recordCount: z.number(),
  createdAt: z.string(),
  active: z.boolean(),
});
export type WorkspaceSummary = z.infer<typeof workspaceSummarySchema>;

/** The project's workspaces with the number of live records the member may see in each. */
export async function listWorkspaces(db: Db, member: Member, projectId: string): Promise<WorkspaceSummary[]> {
  const caller = memberCaller(member, projectId);
  return withTenant(db, member.accountId, async (tx) => {
    await getProject(tx, member, projectId);
    const rows = await tx
      .select({
        id: workspaces.id,
        name: workspaces.name,
        createdAt: workspaces.createdAt,
        deletedAt: workspaces.deletedAt,
        recordCount: sql<number>`count(${records.id})::int`,
      })
      .from(workspaces)
      .leftJoin(records, and(eq(records.workspaceId, workspaces.id), isNull(records.deletedAt), visibleRecords(caller, records)))
      .where(and(eq(workspaces.accountId, member.accountId), eq(workspaces.projectId, projectId)))
      .groupBy(workspaces.id)
      .orderBy(asc(workspaces.name));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      recordCount: row.recordCount,
      createdAt: row.createdAt.toISOString(),
      active: row.deletedAt === null,
    }));
  });
}

const builtInExpander = createBuiltInExpander();

/**
 * Browse (empty query) and search a workspace: the very search the MCP tool runs, as this member,
 * with the process's query expander (the built-in one unless the runtime gives its model's).
 */
export async function searchWorkspace(
  db: Db,
  member: Member,
  projectId: string,
  input: SearchInput,
  expander: QueryExpander = builtInExpander,
): Promise<SearchOutput> {
  await withTenant(db, member.accountId, (tx) => getProject(tx, member, projectId));
  return searchRecords(db, memberCaller(member, projectId), input, expander);
}

/** Every visible version of a fact_key in a workspace, newest first. */
export async function factKeyVersions(
  db: Db,
  member: Member,
  input: { projectId: string; workspace: string; factKey: string },
): Promise<RecordView[]> {
  const caller = memberCaller(member, input.projectId);
  return withTenant(db, member.accountId, async (tx) => {
    const workspace = await findWorkspace(tx, caller, validateWorkspaceName(input.workspace));
    const rows = await tx
      .select(recordColumns)
      .from(records)
      .where(
        and(
          eq(records.workspaceId, workspace.id),
          eq(records.factKey, input.factKey),
          isNull(records.deletedAt),
          visibleRecords(caller, records),
        ),
      )
      .orderBy(desc(records.createdAt))
      .limit(100);
    return describeRecords(tx, caller, rows, { currentSourceHash: null });
  });
}

/** Forget from the dashboard: the same soft delete, visibility and audit as the MCP tool. */
export async function forgetWorkspaceRecord(
  db: Db,
  member: Member,
  input: { projectId: string; id: string; reason?: string | undefined },
): Promise<ForgetOutput> {
  return forgetRecord(db, memberCaller(member, input.projectId), { id: input.id, reason: input.reason ?? null });
}
