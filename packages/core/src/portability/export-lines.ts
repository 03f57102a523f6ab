import { and, asc, count, eq, gt, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { projects, recordRelations, records, users, withTenant, workspaces, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { assertAdmin, type Member } from '../orgs/member.ts';
import {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  type HeaderLine,
  type RecordLine,
  type RelationLine,
  type SummaryLine,
  type TombstoneLine,
} from './export-format.ts';
import { exportable, inScope, resolveExportScope, type ExportScope, type ResolvedScope } from './export-scope.ts';

/** Rows read per statement: memory stays bounded whatever the account's size. */
export const EXPORT_PAGE_ROWS = 500;

export interface ExportOptions {
  /** This instance's public address, written in the header so an import can tell instances apart. */
  instance: string | null;
  now?: () => Date;
  pageRows?: number;
}

const recordColumns = {
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
  archivistMark: records.archivistMark,
  archivistReason: records.archivistReason,
  author: users.email,
  createdAt: records.createdAt,
  updatedAt: records.updatedAt,
  deletedAt: records.deletedAt,
};
type RecordRow = Awaited<ReturnType<typeof readRecordPage>>[number];

function readRecordPage(tx: Db, exporter: Member, scope: ResolvedScope, after: string | undefined, rows: number) {
  return tx
    .select(recordColumns)
    .from(records)
    .innerJoin(projects, eq(projects.id, records.projectId))
    .innerJoin(workspaces, eq(workspaces.id, records.workspaceId))
    .leftJoin(users, eq(users.id, records.authorUserId))
    .where(and(exportable(exporter, scope, records), after === undefined ? undefined : gt(records.id, after)))
    .orderBy(asc(records.id))
    .limit(rows);
}

/** The ids among `ids` that the export holds: references to any other record are left out of the lines. */
async function exportedAmong(tx: Db, exporter: Member, scope: ResolvedScope, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await tx
    .select({ id: records.id })
    .from(records)
    .where(and(inArray(records.id, ids), exportable(exporter, scope, records)));
  return new Set(found.map((row) => row.id));
}

function recordLine(row: RecordRow, derivedFrom: string[], supersededBy: string | null): RecordLine | TombstoneLine {
  if (row.deletedAt !== null) {
    return {
      type: 'tombstone',
      id: row.id,
      project: row.project,
      workspace: row.workspace,
      superseded_by: supersededBy,
      created_at: row.createdAt.toISOString(),
      deleted_at: row.deletedAt.toISOString(),
    };
  }
  return {
    type: 'record',
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
    derived_from: derivedFrom,
    superseded_by: supersededBy,
    archivist_mark: row.archivistMark,
    archivist_reason: row.archivistReason,
    author: row.author,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const fromRecord = alias(records, 'from_record');
const toRecord = alias(records, 'to_record');

function readRelationPage(tx: Db, exporter: Member, scope: ResolvedScope, after: string | undefined, rows: number) {
  return tx
    .select({
      id: recordRelations.id,
      from: recordRelations.fromRecordId,
      to: recordRelations.toRecordId,
      relation: recordRelations.relation,
      weight: recordRelations.weight,
      reason: recordRelations.reason,
      createdAt: recordRelations.createdAt,
    })
    .from(recordRelations)
    .innerJoin(fromRecord, eq(fromRecord.id, recordRelations.fromRecordId))
    .innerJoin(toRecord, eq(toRecord.id, recordRelations.toRecordId))
    .where(
      and(
        eq(recordRelations.accountId, exporter.accountId),
        exportable(exporter, scope, fromRecord),
        exportable(exporter, scope, toRecord),
        after === undefined ? undefined : gt(recordRelations.id, after),
      ),
    )
    .orderBy(asc(recordRelations.id))
    .limit(rows);
}

/** Records of the scope the exporter may not read, and relations with exactly one end exported. */
async function countLeftOut(tx: Db, exporter: Member, scope: ResolvedScope) {
  const [hidden] = await tx
    .select({ n: count() })
    .from(records)
    .where(and(inScope(exporter.accountId, scope, records), sql`coalesce(${exportable(exporter, scope, records)}, false) = false`));
  const [halfRelations] = await tx
    .select({ n: count() })
    .from(recordRelations)
    .innerJoin(fromRecord, eq(fromRecord.id, recordRelations.fromRecordId))
    .innerJoin(toRecord, eq(toRecord.id, recordRelations.toRecordId))
    .where(
      and(
        eq(recordRelations.accountId, exporter.accountId),
        sql`coalesce(${exportable(exporter, scope, fromRecord)}, false) <> coalesce(${exportable(exporter, scope, toRecord)}, false)`,
      ),
    );
  return { records: hidden?.n ?? 0, relations: halfRelations?.n ?? 0 };
}

const line = (value: object) => `${JSON.stringify(value)}\n`;

/** Where a paged export stands: what the next page reads, and what the pages before it counted. */
export const exportCursorSchema = z.strictObject({
  phase: z.enum(['records', 'relations', 'summary']),
  after: z.uuid().nullable(),
  exportedAt: z.iso.datetime({ offset: true }),
  totals: z.strictObject({
    records: z.number().int().min(0),
    tombstones: z.number().int().min(0),
    relations: z.number().int().min(0),
    references: z.number().int().min(0),
  }),
});
export type ExportCursor = z.infer<typeof exportCursorSchema>;

export interface ExportPage {
  /** JSON Lines, each line ending with a newline. */
  text: string;
  /** Pass it back for the next page; null after the summary line. */
  next: ExportCursor | null;
}

/**
 * One page of an owner's or admin's export of a workspace, a project or the whole account, as JSON
 * Lines (docs/export-format.md): the first page starts with the header; then the records and
 * tombstones they may read in id order, the relations between them, and last a summary of what was
 * left out and why. Each page is a bounded read in its own short transaction under the tenant, so
 * memory and locks stay bounded whatever the account's size; the last page is audited.
 */
export async function exportPage(
  db: Db,
  exporter: Member,
  scope: ExportScope,
  cursor: ExportCursor | null,
  options: ExportOptions,
): Promise<ExportPage> {
  assertAdmin(exporter);
  const rows = options.pageRows ?? EXPORT_PAGE_ROWS;
  return withTenant(db, exporter.accountId, async (tx) => {
    const resolved = await resolveExportScope(tx, exporter.accountId, scope);
    if (cursor === null) {
      const header: HeaderLine = {
        format: EXPORT_FORMAT,
        version: EXPORT_FORMAT_VERSION,
        exported_at: (options.now ?? (() => new Date()))().toISOString(),
        source: { instance: options.instance, account_id: exporter.accountId },
        scope: { project: scope.project ?? null, workspace: scope.workspace ?? null },
      };
      const totals = { records: 0, tombstones: 0, relations: 0, references: 0 };
      return { text: line(header), next: { phase: 'records', after: null, exportedAt: header.exported_at, totals } };
    }
    const totals = { ...cursor.totals };
    const after = cursor.after ?? undefined;
    if (cursor.phase === 'records') {
      const found = await readRecordPage(tx, exporter, resolved, after, rows);
      const referenced = [...new Set(found.flatMap((row) => [...row.derivedFrom, ...(row.supersededBy ? [row.supersededBy] : [])]))];
      const exported = await exportedAmong(tx, exporter, resolved, referenced);
      let text = '';
      for (const row of found) {
        const derivedFrom = row.derivedFrom.filter((id) => exported.has(id));
        const supersededBy = row.supersededBy !== null && exported.has(row.supersededBy) ? row.supersededBy : null;
        totals.references += row.derivedFrom.length - derivedFrom.length + (row.supersededBy !== null && supersededBy === null ? 1 : 0);
        const out = recordLine(row, derivedFrom, supersededBy);
        if (out.type === 'record') totals.records += 1;
        else totals.tombstones += 1;
        text += line(out);
      }
      const last = found.at(-1)?.id ?? null;
      const next: ExportCursor =
        found.length === rows ? { ...cursor, after: last, totals } : { ...cursor, phase: 'relations', after: null, totals };
      return { text, next };
    }
    if (cursor.phase === 'relations') {
      const found = await readRelationPage(tx, exporter, resolved, after, rows);
      let text = '';
      for (const row of found) {
        const out: RelationLine = {
          type: 'relation',
          from: row.from,
          to: row.to,
          relation: row.relation,
          weight: row.weight,
          reason: row.reason,
          created_at: row.createdAt.toISOString(),
        };
        text += line(out);
      }
      totals.relations += found.length;
      const last = found.at(-1)?.id ?? null;
      const next: ExportCursor =
        found.length === rows ? { ...cursor, after: last, totals } : { ...cursor, phase: 'summary', after: null, totals };
      return { text, next };
    }
    const leftOut = await countLeftOut(tx, exporter, resolved);
    const summary: SummaryLine = {
      type: 'summary',
      records: totals.records,
      tombstones: totals.tombstones,
      relations: totals.relations,
      left_out: {
        records_not_visible: leftOut.records,
        relations_to_left_out_records: leftOut.relations,
        references_to_left_out_records: totals.references,
      },
    };
    await recordAudit(tx, {
      accountId: exporter.accountId,
      action: 'records.exported',
      actorUserId: exporter.userId,
      data: {
        scope: { project: scope.project ?? null, workspace: scope.workspace ?? null },
        records: summary.records,
        tombstones: summary.tombstones,
        relations: summary.relations,
        left_out: summary.left_out,
      },
    });
    return { text: line(summary), next: null };
  });
}

/** The whole export as a stream of pages (the CLI writes each to standard output as it comes). */
export async function* exportJsonLines(
  db: Db,
  exporter: Member,
  scope: ExportScope,
  options: ExportOptions,
): AsyncGenerator<string> {
  let cursor: ExportCursor | null = null;
  do {
    const page: ExportPage = await exportPage(db, exporter, scope, cursor, options);
    if (page.text !== '') yield page.text;
    cursor = page.next;
  } while (cursor !== null);
}
