import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { records, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { recordColumns } from './record-columns.ts';
import { unknownDerivedFrom, type ValidRememberInput } from './record-input.ts';
import { toRecordView, type RecordView } from './record-view.ts';
import { findOrCreateWorkspace } from './workspaces.ts';

async function assertSourcesExist(tx: Db, caller: Caller, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: records.id })
    .from(records)
    .where(and(inArray(records.id, ids), isNull(records.deletedAt), visibleRecords(caller, records)));
  const existing = new Set(found.map((row) => row.id));
  const missing = ids.filter((id) => !existing.has(id));
  if (missing.length > 0) throw unknownDerivedFrom(missing);
}

/**
 * Inserts a new record in the caller's transaction. Never overwrites: a record with the same fact_key
 * becomes a newer version and the earlier versions point to it through superseded_by. The input is
 * already validated and guarded.
 */
export async function insertRecord(tx: Db, caller: Caller, input: ValidRememberInput): Promise<RecordView> {
  {
    const workspace = await findOrCreateWorkspace(tx, caller, input.workspace);
    await assertSourcesExist(tx, caller, input.derivedFrom);
    const [row] = await tx
      .insert(records)
      .values({
        accountId: caller.accountId,
        projectId: caller.projectId,
        workspaceId: workspace.id,
        authorUserId: caller.userId,
        keyId: caller.keyId,
        content: input.content,
        source: caller.source,
        sourceId: input.sourceId,
        sourceHash: input.sourceHash,
        sourceRevision: input.sourceRevision,
        factKey: input.factKey,
        confidence: input.confidence,
        scope: input.scope,
        derivedFrom: input.derivedFrom,
      })
      .returning(recordColumns);
    if (!row) throw new AppError('unavailable', 'the record could not be stored');
    if (input.factKey !== null) {
      // Earlier versions are kept and marked; their updated_at is left alone, so the newest ranks first.
      await tx
        .update(records)
        .set({ supersededBy: row.id })
        .where(
          and(
            eq(records.accountId, caller.accountId),
            eq(records.workspaceId, workspace.id),
            eq(records.factKey, input.factKey),
            ne(records.id, row.id),
            isNull(records.supersededBy),
            isNull(records.deletedAt),
          ),
        );
    }
    return toRecordView(row, { workspace: workspace.name, status: 'unverified', graph: [] });
  }
}
