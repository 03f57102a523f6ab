import { redactSecrets } from '../guard/redact-secrets.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { executeSqlOn, records, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { isUuid } from './record-input.ts';
import { countForgottenRecord } from '../usage/record-count.ts';

export const forgetInputShape = {
  id: z.string().describe('ID of the record to forget.'),
  reason: z.string().nullish().describe('Why the record is forgotten; kept in the audit log.'),
};
export type ForgetInput = z.infer<z.ZodObject<typeof forgetInputShape>>;

export const forgetOutputShape = {
  id: z.string(),
  forgotten: z.boolean(),
  deleted_at: z.string(),
};
export type ForgetOutput = { id: string; forgotten: boolean; deleted_at: string };

const notFound = (id: string) => new AppError('not_found', `record '${id.slice(0, 64)}' not found`);

/** Planned each time (an unnamed statement), as remember's supersede step is (decision 0010). */
const SUPERSEDE_PAST = `update records set superseded_by = $5::uuid
  where account_id = $1::uuid and workspace_id = $2::uuid and fact_key = $3 and superseded_by = $4::uuid`;

/**
 * What a record leaving the live ones changes besides its row: the versions it superseded point past
 * it again, and the account counts one record less. Forget and purge both do it.
 */
export async function leaveLiveRecords(
  tx: Db,
  accountId: string,
  row: { id: string; workspaceId: string; factKey: string | null; supersededBy: string | null },
): Promise<void> {
  // Only versions of its fact_key can point to it: found through the fact_key index.
  if (row.factKey !== null)
    await executeSqlOn(tx)(SUPERSEDE_PAST, [accountId, row.workspaceId, row.factKey, row.id, row.supersededBy]);
  await countForgottenRecord(tx, accountId);
}

/**
 * A soft delete: the record and its graph links leave search, the row stays, and the audit log keeps
 * the fact of deletion (not the content). Versions it superseded point past it again.
 */
export async function forgetRecord(db: Db, caller: Caller, input: ForgetInput): Promise<ForgetOutput> {
  const id = input.id.trim().toLowerCase();
  if (!isUuid(id)) throw notFound(input.id);
  const stated = input.reason?.trim().slice(0, 500) || null;
  // The reason lands in the append-only audit log: secrets in it are redacted first (500
  // characters at most, so this bounded scan stays on the calling thread).
  const reason = stated === null ? null : (await redactSecrets(stated)).text;
  return withTenant(db, caller.accountId, async (tx) => {
    const [row] = await tx
      .update(records)
      .set({ deletedAt: sql`now()`, deletedBy: caller.userId })
      .where(and(eq(records.id, id), isNull(records.deletedAt), visibleRecords(caller, records)))
      .returning({
        id: records.id,
        workspaceId: records.workspaceId,
        factKey: records.factKey,
        supersededBy: records.supersededBy,
        deletedAt: records.deletedAt,
      });
    if (!row?.deletedAt) throw notFound(input.id);
    await leaveLiveRecords(tx, caller.accountId, row);
    await recordAudit(tx, {
      accountId: caller.accountId,
      action: 'record.forgotten',
      actorUserId: caller.userId,
      actorKeyId: caller.keyId,
      targetType: 'record',
      targetId: row.id,
      data: { workspaceId: row.workspaceId, ...(reason === null ? {} : { reason }) },
    });
    return { id: row.id, forgotten: true, deleted_at: row.deletedAt.toISOString() };
  });
}
