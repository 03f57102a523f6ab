import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyEntries, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError, messages } from '../errors.ts';
import type { RecordView } from './record-view.ts';

const KEEP_HOURS = 24;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export function validateIdempotencyKey(key: string): string {
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('invalid_input', 'X-Idempotency-Key must be 1 to 255 visible ASCII characters');
  }
  return key;
}

/** The fingerprint of a request, taken of its redacted form so no secret reaches the store. */
export function fingerprintRequest(request: unknown): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

/**
 * Claims a key for this request in the record's own transaction. A concurrent claim of the same key
 * waits on the unique index until the first transaction ends, then sees its stored answer; an
 * expired entry is taken over. Returns the earlier answer to replay, or undefined to go on.
 */
export async function claimIdempotencyKey(
  tx: Db,
  caller: Caller,
  key: string,
  fingerprint: string,
): Promise<RecordView | undefined> {
  const expiresAt = sql`now() + make_interval(hours => ${KEEP_HOURS})`;
  const claimed = await tx
    .insert(idempotencyEntries)
    .values({ accountId: caller.accountId, projectId: caller.projectId, key, fingerprint, expiresAt })
    .onConflictDoUpdate({
      target: [idempotencyEntries.projectId, idempotencyEntries.key],
      set: { fingerprint, recordId: null, response: null, createdAt: sql`now()`, expiresAt },
      setWhere: sql`${idempotencyEntries.expiresAt} < now()`,
    })
    .returning({ key: idempotencyEntries.key });
  if (claimed.length > 0) return undefined;
  const [earlier] = await tx
    .select({ fingerprint: idempotencyEntries.fingerprint, response: idempotencyEntries.response })
    .from(idempotencyEntries)
    .where(
      and(
        eq(idempotencyEntries.accountId, caller.accountId),
        eq(idempotencyEntries.projectId, caller.projectId),
        eq(idempotencyEntries.key, key),
      ),
    );
  if (!earlier || earlier.fingerprint !== fingerprint || earlier.response === null) {
    throw new AppError('idempotency_conflict', messages.idempotencyConflict);
  }
  return earlier.response as RecordView;
}

export async function saveIdempotentAnswer(tx: Db, caller: Caller, key: string, answer: RecordView): Promise<void> {
  await tx
    .update(idempotencyEntries)
    .set({ recordId: answer.id, response: answer })
    .where(and(eq(idempotencyEntries.projectId, caller.projectId), eq(idempotencyEntries.key, key)));
}
