import { and, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import { records, workspaces, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { describeRecords, PREVIEW_LENGTH } from '../memory/describe-records.ts';
import { forgetRecord, type ForgetOutput } from '../memory/forget.ts';
import { recordColumns } from '../memory/record-columns.ts';
import { isUuid } from '../memory/record-input.ts';
import { recordViewSchema, type RecordRow } from '../memory/record-view.ts';
import { assertAdmin, memberCaller, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';
import { visibleRecords } from '../visibility/visible-records.ts';

const sourcePreviewSchema = z.object({ id: z.string(), preview: z.string() });

export const recordPageSchema = z.object({
  record: recordViewSchema,
  /** Every visible live version of its fact_key, newest first (the record among them). */
  versions: z.array(recordViewSchema),
  /** The versions whose content or source hash differ from this record's: what it conflicts with. */
  conflictsWith: z.array(recordViewSchema),
  /** Its derived_from sources the member may see, with the start of their content. */
  sources: z.array(sourcePreviewSchema),
});
export type RecordPage = z.infer<typeof recordPageSchema>;

const notFound = (id: string) => new AppError('not_found', `record '${id.slice(0, 64)}' not found`);
const VERSIONS_MAX = 100;

async function readVisible(tx: Db, caller: Caller, id: string): Promise<RecordRow> {
  if (!isUuid(id)) throw notFound(id);
  const [row] = await tx
    .select(recordColumns)
    .from(records)
    .where(and(eq(records.id, id.toLowerCase()), isNull(records.deletedAt), visibleRecords(caller, records)));
  if (!row) throw notFound(id);
  return row;
}

/** One live record the member may see, with its versions, what it conflicts with and its sources. */
export async function getRecordPage(db: Db, member: Member, input: { projectId: string; id: string }): Promise<RecordPage> {
  const caller = memberCaller(member, input.projectId);
  return withTenant(db, member.accountId, async (tx) => {
    await getProject(tx, member, input.projectId);
    const row = await readVisible(tx, caller, input.id);
    const [space] = await tx
      .select({ id: workspaces.id, name: workspaces.name })
      .from(workspaces)
      .where(and(eq(workspaces.id, row.workspaceId), eq(workspaces.accountId, member.accountId)));
    const workspace = space ?? { id: row.workspaceId, name: '' };
    const siblings =
      row.factKey === null
        ? []
        : await tx
            .select(recordColumns)
            .from(records)
            .where(
              and(
                eq(records.workspaceId, row.workspaceId),
                eq(records.factKey, row.factKey),
                ne(records.id, row.id),
                isNull(records.deletedAt),
                visibleRecords(caller, records),
              ),
            )
            .orderBy(desc(records.createdAt), desc(records.id))
            .limit(VERSIONS_MAX);
    const views = await describeRecords(tx, caller, [row, ...siblings], { currentSourceHash: null, workspace });
    const [record, ...others] = views;
    if (!record) throw notFound(input.id);
    const differs = new Set(
      siblings.filter((s) => s.content !== row.content || s.sourceHash !== row.sourceHash).map((s) => s.id),
    );
    const sources =
      record.derived_from.length === 0
        ? []
        : await tx
            .select({ id: records.id, preview: sql<string>`left(${records.content}, ${PREVIEW_LENGTH})` })
            .from(records)
            .where(
              and(
                sql`${records.id} = any(${sql.param(record.derived_from)}::uuid[])`,
                isNull(records.deletedAt),
                visibleRecords(caller, records),
              ),
            );
    const versions = [record, ...others].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id.localeCompare(a.id));
    return { record, versions, conflictsWith: others.filter((other) => differs.has(other.id)), sources };
  });
}

export const resolveConflictInputSchema = z.object({
  projectId: z.uuid(),
  /** The version that stays. */
  keepId: z.uuid(),
  /** The version that is forgotten. */
  forgetId: z.uuid(),
});
export type ResolveConflictInput = z.infer<typeof resolveConflictInputSchema>;

/**
 * An owner or admin settles a conflict by forgetting one of two versions that disagree: the same
 * forget (soft delete, visibility, audit) as the MCP tool, with the kept version named as the reason.
 */
export async function resolveConflict(db: Db, admin: Member, input: ResolveConflictInput): Promise<ForgetOutput> {
  assertAdmin(admin);
  const caller = memberCaller(admin, input.projectId);
  await withTenant(db, admin.accountId, async (tx) => {
    await getProject(tx, admin, input.projectId);
    const keep = await readVisible(tx, caller, input.keepId);
    const drop = await readVisible(tx, caller, input.forgetId);
    const inConflict =
      keep.id !== drop.id &&
      keep.factKey !== null &&
      keep.workspaceId === drop.workspaceId &&
      keep.factKey === drop.factKey &&
      (keep.content !== drop.content || keep.sourceHash !== drop.sourceHash);
    if (!inConflict) throw new AppError('invalid_input', 'these two records are not versions in conflict');
  });
  return forgetRecord(db, caller, { id: input.forgetId, reason: `conflict resolved: kept ${input.keepId}` });
}
