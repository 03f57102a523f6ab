import { and, desc, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordRelations, records, withTenant, type Db } from '@mmw/db';
import type { Analyser, ArchivistRecord } from '../archivist/analyser.ts';
import type { Caller } from '../caller.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import type { JobDefinition } from './job-queue.ts';

export const ARCHIVIST_QUEUE = 'archivist';
const CANDIDATES = 50;

const archivistPayload = z.object({ accountId: z.uuid(), recordId: z.uuid() });
export type ArchivistPayload = z.infer<typeof archivistPayload>;

const archivistColumns = {
  id: records.id,
  content: records.content,
  factKey: records.factKey,
  sourceId: records.sourceId,
  sourceHash: records.sourceHash,
  createdAt: records.createdAt,
};

/** The record as its author acts: the archivist only works with what the author may see. */
async function loadWork(db: Db, payload: ArchivistPayload) {
  return withTenant(db, payload.accountId, async (tx) => {
    const [row] = await tx
      .select({ ...archivistColumns, projectId: records.projectId, workspaceId: records.workspaceId, authorUserId: records.authorUserId })
      .from(records)
      .where(and(eq(records.id, payload.recordId), eq(records.accountId, payload.accountId), isNull(records.deletedAt)));
    if (!row?.authorUserId) return undefined;
    const author: Caller = {
      accountId: payload.accountId,
      projectId: row.projectId,
      userId: row.authorUserId,
      keyId: null,
      source: 'archivist',
    };
    const candidates: ArchivistRecord[] = await tx
      .select(archivistColumns)
      .from(records)
      .where(
        and(
          eq(records.workspaceId, row.workspaceId),
          ne(records.id, row.id),
          isNull(records.deletedAt),
          visibleRecords(author, records),
        ),
      )
      // Newest first by updated_at, which remember never changes after the insert (so it is the
      // creation time): the order of the workspace's recency index, which stops after CANDIDATES rows.
      .orderBy(desc(records.updatedAt), desc(records.id))
      .limit(CANDIDATES);
    return { author, workspaceId: row.workspaceId, record: row, candidates };
  });
}

/**
 * After each write: links the new record to recent ones and may mark an older one stale or refined.
 * Idempotent: links are upserted and marks set again; the model (if any) is asked outside any
 * transaction, and what it proposes is checked against records that still exist and that the
 * author may see.
 */
export function archivistJob(deps: { db: Db; analyser: Analyser }): JobDefinition<ArchivistPayload> {
  return {
    name: ARCHIVIST_QUEUE,
    payload: archivistPayload,
    async handle(payload) {
      const work = await loadWork(deps.db, payload);
      if (!work || work.candidates.length === 0) return;
      const analysis = await deps.analyser.analyse({ record: work.record, candidates: work.candidates });
      const allowed = new Set(work.candidates.map((candidate) => candidate.id));
      const relations = analysis.relations.filter((r) => r.fromId === work.record.id && allowed.has(r.toId));
      const marks = analysis.marks.filter((m) => allowed.has(m.recordId));
      if (relations.length === 0 && marks.length === 0) return;
      await withTenant(deps.db, payload.accountId, async (tx) => {
        // Re-read: a record forgotten since the analysis takes no new links.
        const live = await tx
          .select({ id: records.id })
          .from(records)
          .where(
            and(
              inArray(records.id, [work.record.id, ...allowed]),
              isNull(records.deletedAt),
              visibleRecords(work.author, records),
            ),
          );
        const alive = new Set(live.map((row) => row.id));
        if (!alive.has(work.record.id)) return;
        for (const relation of relations.filter((r) => alive.has(r.toId))) {
          await tx
            .insert(recordRelations)
            .values({
              accountId: payload.accountId,
              workspaceId: work.workspaceId,
              fromRecordId: relation.fromId,
              toRecordId: relation.toId,
              relation: relation.relation,
              weight: Math.min(1, Math.max(0, relation.weight)),
              reason: relation.reason.slice(0, 500),
            })
            .onConflictDoUpdate({
              target: [recordRelations.fromRecordId, recordRelations.toRecordId, recordRelations.relation],
              set: { weight: sql`excluded.weight`, reason: sql`excluded.reason` },
            });
        }
        for (const mark of marks.filter((m) => alive.has(m.recordId))) {
          await tx
            .update(records)
            .set({ archivistMark: mark.mark, archivistReason: mark.reason.slice(0, 500) })
            .where(and(eq(records.id, mark.recordId), eq(records.accountId, payload.accountId)));
        }
      });
    },
  };
}
