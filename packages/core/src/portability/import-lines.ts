import { sql } from 'drizzle-orm';
import { withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError, isAppError, messages } from '../errors.ts';
import type { InputGuard } from '../memory/guard-input.ts';
import { validateRememberInput } from '../memory/record-input.ts';
import { recordLimitReached } from '../memory/remember.ts';
import { assertAdmin, type Member } from '../orgs/member.ts';
import {
  EXPORT_FORMAT,
  EXPORT_FORMAT_VERSION,
  bodyLineSchema,
  headerLineSchema,
  type BodyLine,
  type HeaderLine,
  type RecordLine,
  type SummaryLine,
  type TombstoneLine,
} from './export-format.ts';
import { importedRecordId } from './imported-id.ts';
import {
  authorResolver,
  dropDanglingReferences,
  forgetImported,
  insertImportedRelation,
  insertImportedRows,
  presentIds,
  projectResolver,
  workspaceResolver,
  type ImportRow,
} from './import-writes.ts';

/** Record lines stored per statement. */
const IMPORT_BATCH = 200;
/** Skipped lines named one by one in the report; the rest are counted by reason. */
const SKIPPED_LISTED = 50;

export interface ImportTarget {
  /** Every record goes into this project (which must exist); without it, each into its own project by name. */
  project?: string | undefined;
}

export interface ImportReport {
  /** The exporting instance and account, as the mapping keys the records by. */
  source: string;
  imported: number;
  tombstones: number;
  relations: number;
  /** Records (and relations) that an earlier import of the same export already stored: left as they are. */
  alreadyPresent: number;
  /** References to records that never arrived, dropped from derived_from and superseded_by. */
  droppedReferences: number;
  skipped: number;
  skippedByReason: Record<string, number>;
  skippedLines: Array<{ line: number; id: string; reason: string }>;
}

const fatal = (message: string) => new AppError('invalid_input', message);

function parseJson(text: string, number: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw fatal(`line ${number} is not JSON`);
  }
}

function issueText(number: number, error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string {
  const issue = error.issues[0];
  const path = issue?.path.map(String).join('.') ?? '';
  return `line ${number}: ${path === '' ? '' : `${path}: `}${issue?.message ?? 'not a line of the export format'}`;
}

/** The first line: an MMW export of a version this instance reads, or a clear refusal. */
export function parseHeader(text: string): HeaderLine {
  const value = parseJson(text, 1);
  const named = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  if (named.format !== EXPORT_FORMAT) {
    throw fatal(`line 1 is not the header of an MMW export: it must name "format": "${EXPORT_FORMAT}"`);
  }
  const version = named.version;
  if (typeof version === 'number' && version > EXPORT_FORMAT_VERSION) {
    throw fatal(`this export is format version ${version}, from a newer MMW: this instance reads version ${EXPORT_FORMAT_VERSION}`);
  }
  if (version !== EXPORT_FORMAT_VERSION) throw fatal(`this export's format version is not one this instance reads (${EXPORT_FORMAT_VERSION})`);
  const parsed = headerLineSchema.safeParse(value);
  if (!parsed.success) throw fatal(issueText(1, parsed.error));
  return parsed.data;
}

function parseBody(text: string, number: number): BodyLine {
  const parsed = bodyLineSchema.safeParse(parseJson(text, number));
  if (!parsed.success) throw fatal(issueText(number, parsed.error));
  return parsed.data;
}

export interface ImportDeps {
  /** The Memory Guard, as remember uses it (memory-service.ts): every record passes it. */
  guard: InputGuard;
  /**
   * What the account's subscription allows (billing-overview.ts): an import is a write, refused
   * without full access, and its records count against the plan's record limit.
   */
  allowance?: { access: 'full' | 'read_only' | 'none'; notice: string | null; plan: { name: string; recordLimit: number | null } };
}

/**
 * An owner or admin imports an export (docs/export-format.md) into their account: each record gets
 * a new id (kept in import_mappings beside the original), passes validation and the Memory Guard
 * as remember would (a refused one is skipped and reported), and keeps its versions, relations and
 * derived_from pointing at the imported records. The whole import is one transaction: a fatal
 * error in the file (not JSON, a wrong header, a newer format, an unknown field, a file cut short)
 * changes nothing. Importing the same file again finds every record present and changes nothing.
 * Lines are read one at a time and written in batches, so memory stays bounded.
 */
export async function importJsonLines(
  db: Db,
  importer: Member,
  target: ImportTarget,
  lines: AsyncIterable<string>,
  deps: ImportDeps,
): Promise<ImportReport> {
  assertAdmin(importer);
  const accountId = importer.accountId;
  const allowance = deps.allowance;
  if (allowance !== undefined && allowance.access !== 'full') {
    throw new AppError('subscription_required', allowance.notice ?? messages.notice('memory is read-only'));
  }
  try {
    return await withTenant(db, accountId, (tx) => importInTransaction(tx, importer, target, lines, deps));
  } catch (error) {
    const reason = isAppError(error) ? error.message : 'the import failed';
    await withTenant(db, accountId, (tx) =>
      recordAudit(tx, { accountId, action: 'records.import_failed', actorUserId: importer.userId, data: { reason } }),
    );
    throw error;
  }
}

async function importInTransaction(
  tx: Db,
  importer: Member,
  target: ImportTarget,
  lines: AsyncIterable<string>,
  deps: ImportDeps,
): Promise<ImportReport> {
  const accountId = importer.accountId;
  const projectOf = projectResolver(tx, accountId, target.project);
  const workspaceOf = workspaceResolver(tx, accountId);
  const authorOf = authorResolver(tx, accountId, importer.userId);
  let header: HeaderLine | undefined;
  let source = '';
  let summary: SummaryLine | undefined;
  const seen = { records: 0, tombstones: 0, relations: 0 };
  const report: ImportReport = {
    source: '',
    imported: 0,
    tombstones: 0,
    relations: 0,
    alreadyPresent: 0,
    droppedReferences: 0,
    skipped: 0,
    skippedByReason: {},
    skippedLines: [],
  };
  const skip = (line: number, id: string, reason: string) => {
    report.skipped += 1;
    report.skippedByReason[reason] = (report.skippedByReason[reason] ?? 0) + 1;
    if (report.skippedLines.length < SKIPPED_LISTED) report.skippedLines.push({ line, id, reason });
  };
  const newId = (original: string) => importedRecordId(accountId, source, original);
  let batch: Array<{ number: number; line: RecordLine | TombstoneLine }> = [];

  async function toRow(number: number, line: RecordLine | TombstoneLine): Promise<ImportRow | undefined> {
    const projectId = await projectOf(line.project);
    const workspace = await workspaceOf(projectId, line.workspace);
    if ('refused' in workspace) return void skip(number, line.id, workspace.refused);
    const place = { originalId: line.id, id: newId(line.id), projectId, workspaceId: workspace.id };
    if (line.type === 'tombstone') {
      return {
        ...place,
        authorUserId: importer.userId,
        content: '',
        source: 'import',
        sourceId: null,
        sourceHash: null,
        sourceRevision: null,
        factKey: null,
        confidence: 0.5,
        scope: null,
        derivedFrom: [],
        supersededBy: line.superseded_by === null ? null : newId(line.superseded_by),
        archivistMark: null,
        archivistReason: null,
        createdAt: new Date(line.created_at),
        updatedAt: new Date(line.created_at),
        deletedAt: new Date(line.deleted_at),
      };
    }
    let guarded;
    try {
      const valid = validateRememberInput({
        content: line.content,
        workspace: line.workspace,
        fact_key: line.fact_key,
        source_id: line.source_id,
        source_hash: line.source_hash,
        source_revision: line.source_revision,
        confidence: line.confidence,
        scope: line.scope,
        derived_from: line.derived_from,
      });
      guarded = await deps.guard(valid);
    } catch (error) {
      if (isAppError(error) && (error.code === 'invalid_input' || error.code === 'guard_rejected')) {
        return void skip(number, line.id, error.code === 'guard_rejected' ? 'guard_rejected' : 'invalid_record');
      }
      throw error;
    }
    return {
      ...place,
      authorUserId: await authorOf(line.author),
      content: guarded.content,
      source: line.source,
      sourceId: guarded.sourceId,
      sourceHash: guarded.sourceHash,
      sourceRevision: guarded.sourceRevision,
      factKey: guarded.factKey,
      confidence: guarded.confidence,
      scope: guarded.scope,
      derivedFrom: guarded.derivedFrom.map(newId),
      supersededBy: line.superseded_by === null ? null : newId(line.superseded_by),
      archivistMark: line.archivist_mark,
      archivistReason: line.archivist_reason,
      createdAt: new Date(line.created_at),
      updatedAt: new Date(line.updated_at),
      deletedAt: null,
    };
  }

  async function flush(): Promise<void> {
    if (batch.length === 0) return;
    const present = await presentIds(tx, accountId, batch.map(({ line }) => newId(line.id)));
    const rows: ImportRow[] = [];
    for (const { number, line } of batch) {
      const id = newId(line.id);
      if (present.has(id)) {
        // A tombstone of a record an earlier import stored live: the deletion reaches it.
        if (line.type === 'tombstone' && (await forgetImported(tx, accountId, id, new Date(line.deleted_at), importer.userId))) {
          report.tombstones += 1;
        } else report.alreadyPresent += 1;
        continue;
      }
      const row = await toRow(number, line);
      if (row !== undefined) rows.push(row);
    }
    await insertImportedRows(tx, accountId, source, rows);
    const live = rows.filter((row) => row.deletedAt === null).length;
    report.imported += live;
    report.tombstones += rows.length - live;
    if (live > 0) {
      // Counted as mmw_remember() counts (migration 0020), past the plan's limit refused: the import rolls back.
      const limit = deps.allowance?.plan.recordLimit ?? null;
      const counted = await tx.execute(sql`insert into account_usage as u (account_id, record_count)
        select ${accountId}::uuid, ${live} where ${limit}::int is null or ${live} <= ${limit}::int
        on conflict (account_id) do update set record_count = u.record_count + ${live}
          where ${limit}::int is null or u.record_count + ${live} <= ${limit}::int
        returning u.record_count`);
      const rows = (counted as { rows: unknown[] }).rows;
      if (rows.length === 0 && deps.allowance !== undefined) throw recordLimitReached(deps.allowance.plan);
    }
    batch = [];
  }

  let number = 0;
  for await (const text of lines) {
    number += 1;
    if (text.trim() === '') continue;
    if (header === undefined) {
      if (number !== 1) throw fatal('line 1 is not the header of an MMW export');
      header = parseHeader(text);
      source = `${header.source.instance ?? 'local'}/${header.source.account_id}`;
      report.source = source;
      continue;
    }
    if (summary !== undefined) throw fatal(`line ${number} follows the summary line, which must be the last`);
    const line = parseBody(text, number);
    if (line.type === 'summary') {
      summary = line;
      continue;
    }
    if (line.type === 'relation') {
      await flush();
      seen.relations += 1;
      const stored = await insertImportedRelation(tx, accountId, line, newId(line.from), newId(line.to));
      if (stored === 'stored') report.relations += 1;
      else if (stored === 'present') report.alreadyPresent += 1;
      else skip(number, `${line.from}>${line.to}`, 'relation_to_skipped_record');
      continue;
    }
    if (line.type === 'record') seen.records += 1;
    else seen.tombstones += 1;
    batch.push({ number, line });
    if (batch.length >= IMPORT_BATCH) await flush();
  }
  if (header === undefined) throw fatal('the file is empty: an MMW export starts with its header line');
  if (summary === undefined) throw fatal('the file ends before its summary line: it was cut short');
  if (summary.records !== seen.records || summary.tombstones !== seen.tombstones || summary.relations !== seen.relations) {
    throw fatal(
      `the summary counts ${summary.records} records, ${summary.tombstones} tombstones and ${summary.relations} relations; the file holds ${seen.records}, ${seen.tombstones} and ${seen.relations}`,
    );
  }
  await flush();
  report.droppedReferences = await dropDanglingReferences(tx, accountId, source);
  await recordAudit(tx, {
    accountId,
    action: 'records.imported',
    actorUserId: importer.userId,
    data: {
      source,
      imported: report.imported,
      tombstones: report.tombstones,
      relations: report.relations,
      already_present: report.alreadyPresent,
      skipped: report.skippedByReason,
      dropped_references: report.droppedReferences,
    },
  });
  return report;
}
