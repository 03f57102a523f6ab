import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyEntries, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError, messages } from '../errors.ts';

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
 * The record stored under the key (entries are written by mmw_remember() with their record, and
 * kept 24 hours), when the request is the same (same fingerprint); undefined when the key holds
 * nothing live. A different request under a used key is a conflict.
 */
export async function earlierRecordId(
  tx: Db,
  caller: Caller,
  key: string,
  fingerprint: string,
): Promise<string | undefined> {
  const [earlier] = await tx
    .select({ fingerprint: idempotencyEntries.fingerprint, recordId: idempotencyEntries.recordId })
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
  if (earlier.fingerprint !== fingerprint) {
    throw new AppError('idempotency_conflict', messages.idempotencyConflict);
  }
  return earlier.recordId ?? undefined;
}
