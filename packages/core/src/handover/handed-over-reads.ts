import { and, inArray, sql } from 'drizzle-orm';
import { records, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import type { Caller } from '../caller.ts';
import { handedOverRecords } from '../visibility/visible-records.ts';

/**
 * Records, in the audit log, how many of the records a read returned were handed over from people
 * who left: counts only, never ids of content or the content itself. Nothing is written when none were.
 */
export async function auditHandedOverReads(tx: Db, caller: Caller, ids: readonly string[], via: string): Promise<void> {
  if (ids.length === 0) return;
  const [row] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(records)
    .where(and(inArray(records.id, [...ids]), handedOverRecords(caller.accountId, records)));
  await auditHandedOverCount(tx, caller, row?.count ?? 0, via);
}

/** The same, for a read that already knows how many of its records were handed over. */
export async function auditHandedOverCount(tx: Db, caller: Caller, count: number, via: string): Promise<void> {
  if (count === 0) return;
  await recordAudit(tx, {
    accountId: caller.accountId,
    action: 'handover.read',
    actorUserId: caller.userId,
    actorKeyId: caller.keyId,
    targetType: 'project',
    targetId: caller.projectId,
    data: { count, via },
  });
}
