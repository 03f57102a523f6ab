import { and, desc, eq, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { records, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import type { Caller } from '../caller.ts';
import { describeRecords } from '../memory/describe-records.ts';
import { recordColumns } from '../memory/record-columns.ts';
import { validateWorkspaceName } from '../memory/record-input.ts';
import { recordViewSchema } from '../memory/record-view.ts';
import { findWorkspace } from '../memory/workspaces.ts';
import { memberCaller, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';
import { visibleRecords } from '../visibility/visible-records.ts';

export const BROWSE_PAGE_MAX = 50;
/** Counting stops here: a total above it is shown as "more than". */
export const BROWSE_COUNT_CAP = 10_000;

export const browseRecordsInputSchema = z.object({
  projectId: z.uuid(),
  workspace: z.string().max(100),
  status: z.enum(['unverified', 'stale', 'conflict']).optional(),
  scope: z.string().trim().max(100).optional(),
  factKey: z.string().trim().max(200).optional(),
  source: z.string().trim().max(100).optional(),
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(1).max(BROWSE_PAGE_MAX).default(20),
});
export type BrowseRecordsInput = z.input<typeof browseRecordsInputSchema>;

export const browseRecordsOutputSchema = z.object({
  records: z.array(recordViewSchema.extend({ versions: z.number().int() })),
  total: z.number().int(),
  /** True when the total reached the count cap: there are at least `total` records. */
  totalCapped: z.boolean(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type BrowseRecordsOutput = z.infer<typeof browseRecordsOutputSchema>;

/** Another live, visible record of the same fact_key in the same workspace. */
function sibling(tx: Db, caller: Caller, name: string) {
  const other = alias(records, name);
  const same = (extra: SQL | undefined) =>
    sql`exists (${tx
      .select({ one: sql`1` })
      .from(other)
      .where(
        and(
          eq(other.workspaceId, records.workspaceId),
          eq(other.factKey, records.factKey),
          ne(other.id, records.id),
          isNull(other.deletedAt),
          visibleRecords(caller, other),
          extra,
        ),
      )})`;
  return { other, same };
}

/**
 * A record's own status as a condition, the rule of status.ts in SQL: conflict when a sibling says
 * otherwise, else stale when the archivist marked it, else unverified. Inheritance through
 * derived_from is not part of the filter (a summary shows its inherited status on the card).
 */
function ownStatusIs(tx: Db, caller: Caller, status: 'unverified' | 'stale' | 'conflict'): SQL {
  const { other, same } = sibling(tx, caller, 'conflicting');
  const conflicting = and(
    isNotNull(records.factKey),
    same(or(ne(other.content, records.content), sql`${other.sourceHash} is distinct from ${records.sourceHash}`)),
  ) as SQL;
  if (status === 'conflict') return conflicting;
  const stale = sql`${records.archivistMark} is not distinct from 'stale'`;
  return status === 'stale' ? sql`(${stale} and not ${conflicting})` : sql`(not ${stale} and not ${conflicting})`;
}

/**
 * One page of a workspace's live records the member may see, newest first, with the total: each
 * fact_key shows only its newest visible version, with the number of versions folded under it.
 */
export async function browseRecords(db: Db, member: Member, raw: BrowseRecordsInput): Promise<BrowseRecordsOutput> {
  const input = browseRecordsInputSchema.parse(raw);
  const caller = memberCaller(member, input.projectId);
  return withTenant(db, member.accountId, async (tx) => {
    await getProject(tx, member, input.projectId);
    const workspace = await findWorkspace(tx, caller, validateWorkspaceName(input.workspace));
    const { other: newer, same } = sibling(tx, caller, 'newer');
    const where = and(
      eq(records.workspaceId, workspace.id),
      isNull(records.deletedAt),
      visibleRecords(caller, records),
      // The newest visible version of a fact_key stands for the others.
      or(
        isNull(records.factKey),
        sql`not ${same(sql`(${newer.createdAt}, ${newer.id}) > (${records.createdAt}, ${records.id})`)}`,
      ),
      input.scope ? eq(records.scope, input.scope) : undefined,
      input.factKey ? eq(records.factKey, input.factKey) : undefined,
      input.source ? eq(records.source, input.source) : undefined,
      input.status ? ownStatusIs(tx, caller, input.status) : undefined,
    );
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(sql`(${tx.select({ one: sql`1` }).from(records).where(where).limit(BROWSE_COUNT_CAP)}) as capped`);
    const total = counted?.n ?? 0;
    const rows = await tx
      .select(recordColumns)
      .from(records)
      .where(where)
      .orderBy(desc(records.createdAt), desc(records.id))
      .limit(input.pageSize)
      .offset((input.page - 1) * input.pageSize);
    const keys = [...new Set(rows.flatMap((row) => (row.factKey === null ? [] : [row.factKey])))];
    const versions = new Map<string, number>();
    if (keys.length > 0) {
      const counts = await tx
        .select({ factKey: records.factKey, n: sql<number>`count(*)::int` })
        .from(records)
        .where(
          and(
            eq(records.workspaceId, workspace.id),
            inArray(records.factKey, keys),
            isNull(records.deletedAt),
            visibleRecords(caller, records),
          ),
        )
        .groupBy(records.factKey);
      for (const row of counts) if (row.factKey !== null) versions.set(row.factKey, row.n);
    }
    const views = await describeRecords(tx, caller, rows, { currentSourceHash: null, workspace });
    return {
      records: views.map((view) => ({ ...view, versions: view.fact_key === null ? 1 : (versions.get(view.fact_key) ?? 1) })),
      total,
      totalCapped: total >= BROWSE_COUNT_CAP,
      page: input.page,
      pageSize: input.pageSize,
    };
  });
}
