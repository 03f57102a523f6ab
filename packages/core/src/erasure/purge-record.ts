import { and, eq, like, or, sql } from 'drizzle-orm';
import { idempotencyEntries, recordRelations, records, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { leaveLiveRecords } from '../memory/forget.ts';
import { isUuid } from '../memory/record-input.ts';
import { assertAdmin, memberCaller, type Member } from '../orgs/member.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { eraseJobsOf } from './erase-jobs.ts';

export const purgeRecordInputSchema = z.object({
  projectId: z.uuid(),
  id: z.string().max(100),
  /** The record's id typed again: a purge cannot be undone. */
  confirmId: z.string().max(100),
});
export type PurgeRecordInput = z.infer<typeof purgeRecordInputSchema>;

export const purgeRecordOutputSchema = z.object({ id: z.string(), purged: z.literal(true) });

const notFound = (id: string) => new AppError('not_found', `record '${id.slice(0, 64)}' not found`);

/**
 * Erasure: an owner or admin removes a record for good, forgotten or not, among the records they may
 * read. The row goes, and with it what refers to it: its graph relations (both ways), its pending and
 * past archivist jobs, the idempotency answers that name it, and the archivist marks on other records
 * whose reason names it. What is kept is the audit fact: the record's id and who purged it, never
 * the content. One transaction, the tenant's; every statement names the account.
 */
export async function purgeRecord(db: Db, member: Member, input: PurgeRecordInput): Promise<{ id: string; purged: true }> {
  assertAdmin(member);
  const id = input.id.trim().toLowerCase();
  if (!isUuid(id)) throw notFound(input.id);
  if (input.confirmId.trim().toLowerCase() !== id) {
    throw new AppError('invalid_input', "type the record's id to confirm the purge");
  }
  const caller = memberCaller(member, input.projectId);
  return withTenant(db, member.accountId, async (tx) => {
    const [row] = await tx
      .select({
        id: records.id,
        workspaceId: records.workspaceId,
        factKey: records.factKey,
        supersededBy: records.supersededBy,
        deletedAt: records.deletedAt,
      })
      .from(records)
      .where(and(eq(records.id, id), visibleRecords(caller, records)))
      .for('update');
    if (!row) throw notFound(input.id);
    if (row.deletedAt === null) await leaveLiveRecords(tx, member.accountId, row);
    await tx
      .update(records)
      .set({ archivistMark: null, archivistReason: null })
      .where(
        and(
          eq(records.accountId, member.accountId),
          eq(records.workspaceId, row.workspaceId),
          like(records.archivistReason, `%${id}%`),
        ),
      );
    await tx
      .delete(recordRelations)
      .where(
        and(
          eq(recordRelations.accountId, member.accountId),
          or(eq(recordRelations.fromRecordId, id), eq(recordRelations.toRecordId, id)),
        ),
      );
    await tx
      .delete(idempotencyEntries)
      .where(
        and(
          eq(idempotencyEntries.accountId, member.accountId),
          or(eq(idempotencyEntries.recordId, id), sql`${idempotencyEntries.response}->>'id' = ${id}`),
        ),
      );
    await tx.delete(records).where(and(eq(records.accountId, member.accountId), eq(records.id, id)));
    await eraseJobsOf(tx, member.accountId, id);
    await recordAudit(tx, {
      accountId: member.accountId,
      action: 'record.purged',
      actorUserId: member.userId,
      targetType: 'record',
      targetId: id,
      data: { workspaceId: row.workspaceId, wasForgotten: row.deletedAt !== null },
    });
    return { id, purged: true as const };
  });
}
