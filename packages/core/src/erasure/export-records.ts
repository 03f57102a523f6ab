import { and, asc, eq, gt, or } from 'drizzle-orm';
import { projects, records, workspaces, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { memberCaller, type Member } from '../orgs/member.ts';
import { visibleRecords } from '../visibility/visible-records.ts';

/** Records per page of the export: each request does bounded work. */
export const EXPORT_PAGE_SIZE = 2000;

export const exportRecordsInputSchema = z.object({ after: z.uuid().optional() });
export const exportRecordsOutputSchema = z.object({
  /** JSON Lines: one record per line, each ending with a newline. */
  jsonl: z.string(),
  rows: z.number(),
  /** The id to pass as `after` for the next page; null on the last one. */
  nextAfter: z.string().nullable(),
});
export type ExportRecordsPage = z.infer<typeof exportRecordsOutputSchema>;

const exportColumns = {
  id: records.id,
  project: projects.name,
  workspace: workspaces.name,
  content: records.content,
  factKey: records.factKey,
  source: records.source,
  sourceId: records.sourceId,
  sourceHash: records.sourceHash,
  sourceRevision: records.sourceRevision,
  confidence: records.confidence,
  scope: records.scope,
  derivedFrom: records.derivedFrom,
  supersededBy: records.supersededBy,
  authorUserId: records.authorUserId,
  createdAt: records.createdAt,
  deletedAt: records.deletedAt,
};

/**
 * One record as a line of the account export: the spec's field names, ISO times. The one place a
 * record's export form is decided; a fuller export/import extends it here.
 */
export function serializeRecordForExport(row: {
  id: string;
  project: string;
  workspace: string;
  content: string;
  factKey: string | null;
  source: string;
  sourceId: string | null;
  sourceHash: string | null;
  sourceRevision: string | null;
  confidence: number;
  scope: string | null;
  derivedFrom: string[];
  supersededBy: string | null;
  authorUserId: string | null;
  createdAt: Date;
  deletedAt: Date | null;
}): string {
  return JSON.stringify({
    id: row.id,
    project: row.project,
    workspace: row.workspace,
    content: row.content,
    fact_key: row.factKey,
    source: row.source,
    source_id: row.sourceId,
    source_hash: row.sourceHash,
    source_revision: row.sourceRevision,
    confidence: row.confidence,
    scope: row.scope,
    derived_from: row.derivedFrom,
    superseded_by: row.supersededBy,
    author_user_id: row.authorUserId,
    created_at: row.createdAt.toISOString(),
    deleted_at: row.deletedAt?.toISOString() ?? null,
  });
}

/**
 * A page of the account's records that the owner may read (every project, forgotten ones too, with
 * their deleted_at), in id order, as JSON Lines: what an owner is offered before deleting the account.
 */
export async function exportAccountRecords(
  db: Db,
  member: Member,
  input: { after?: string | undefined },
): Promise<ExportRecordsPage> {
  if (member.role !== 'owner') throw new AppError('forbidden', 'only an owner may export the account');
  return withTenant(db, member.accountId, async (tx) => {
    const projectIds = await tx.select({ id: projects.id }).from(projects).where(eq(projects.accountId, member.accountId));
    if (projectIds.length === 0) return { jsonl: '', rows: 0, nextAfter: null };
    const rows = await tx
      .select(exportColumns)
      .from(records)
      .innerJoin(projects, eq(projects.id, records.projectId))
      .innerJoin(workspaces, eq(workspaces.id, records.workspaceId))
      .where(
        and(
          eq(records.accountId, member.accountId),
          input.after === undefined ? undefined : gt(records.id, input.after),
          or(...projectIds.map((project) => visibleRecords(memberCaller(member, project.id), records))),
        ),
      )
      .orderBy(asc(records.id))
      .limit(EXPORT_PAGE_SIZE);
    const last = rows.at(-1);
    return {
      jsonl: rows.map((row) => `${serializeRecordForExport(row)}\n`).join(''),
      rows: rows.length,
      nextAfter: rows.length === EXPORT_PAGE_SIZE && last !== undefined ? last.id : null,
    };
  });
}
