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
 * Stores the answer under the key, in the record's own transaction and after the record, so a
 * first request costs one statement. A concurrent request with the same key waits on the unique
 * index until the first transaction ends; an expired entry is taken over. Returns false when the
 * key holds an earlier answer: the caller rolls its record back and replays that answer.
 */
export async function storeIdempotentAnswer(
  tx: Db,
  caller: Caller,
  key: string,
  fingerprint: string,
  answer: RecordView,
): Promise<boolean> {
  const expiresAt = sql`now() + make_interval(hours => ${KEEP_HOURS})`;
  const entry = { fingerprint, recordId: answer.id, response: answer, expiresAt };
  const stored = await tx
    .insert(idempotencyEntries)
    .values({ accountId: caller.accountId, projectId: caller.projectId, key, ...entry })
    .onConflictDoUpdate({
      target: [idempotencyEntries.projectId, idempotencyEntries.key],
      set: { ...entry, createdAt: sql`now()` },
      setWhere: sql`${idempotencyEntries.expiresAt} < now()`,
    })
    .returning({ key: idempotencyEntries.key });
  return stored.length > 0;
}

/**
 * The answer stored under the key, when the request is the same (same fingerprint); undefined when
 * the key holds nothing live. A different request under a used key is a conflict.
 */
export async function earlierAnswer(
  tx: Db,
  caller: Caller,
  key: string,
  fingerprint: string,
): Promise<RecordView | undefined> {
  const [earlier] = await tx
    .select({ fingerprint: idempotencyEntries.fingerprint, response: idempotencyEntries.response })
    .from(idempotencyEntries)
    .where(
      and(
        eq(idempotencyEntries.accountId, caller.accountId),
        eq(idempotencyEntries.projectId, caller.projectId),
        eq(idempotencyEntries.key, key),
        sql`${idempotencyEntries.expiresAt} >= now()`,
      ),
    );
  if (!earlier) return undefined;
  if (earlier.fingerprint !== fingerprint || earlier.response === null) {
    throw new AppError('idempotency_conflict', messages.idempotencyConflict);
  }
  return earlier.response as RecordView;
}
