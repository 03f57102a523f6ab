import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { deferredSqlOn, failedRequirement, idempotencyEntries, type Db } from '@mmw/db';
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

const KEY_HELD_FAILURE = 'mmw:idempotency_key_held';

/** The entry under the key, or a failed requirement when a live earlier answer holds the key. */
const STORE_ANSWER = `with stored as (
     insert into idempotency_entries as e (account_id, project_id, key, fingerprint, record_id, response, expires_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, now() + make_interval(hours => ${KEEP_HOURS}))
     on conflict (project_id, key) do update set
       fingerprint = excluded.fingerprint, record_id = excluded.record_id, response = excluded.response,
       expires_at = excluded.expires_at, created_at = now()
       where e.expires_at < now()
     returning 1)
   select mmw_require(exists (select from stored), $7)`;

/**
 * Stores the answer under the key, in the record's own transaction and after the record; it is
 * sent with the commit, in its round trip. A concurrent request with the same key waits on the
 * unique index until the first transaction ends; an expired entry is taken over. When the key holds
 * a live earlier answer, the commit fails (idempotencyKeyHeld tells that failure apart): the record
 * rolls back and the caller replays that answer.
 */
export async function storeIdempotentAnswer(
  tx: Db,
  caller: Caller,
  key: string,
  fingerprint: string,
  answer: RecordView,
): Promise<void> {
  await deferredSqlOn(tx)(STORE_ANSWER, [
    caller.accountId,
    caller.projectId,
    key,
    fingerprint,
    answer.id,
    JSON.stringify(answer),
    KEY_HELD_FAILURE,
  ]);
}

/** True when the error is storeIdempotentAnswer's refusal: the key holds an earlier answer. */
export function idempotencyKeyHeld(error: unknown): boolean {
  return failedRequirement(error) === KEY_HELD_FAILURE;
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
