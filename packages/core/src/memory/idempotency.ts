import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { deferredSqlOn, failedRequirement, idempotencyEntries, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError, messages } from '../errors.ts';
import type { RecordView } from './record-view.ts';
import { rememberedAnswer } from './remember.ts';

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

/**
 * The entries of $1 (a JSON array of project_id, key, fingerprint, record_id), or a failed
 * requirement when a live earlier answer holds one of the keys. The answer is the record's: it is
 * rebuilt from it (rememberedAnswer), so it is not stored twice.
 */
const STORE_ANSWERS = `with entries as (
     select * from jsonb_to_recordset($1::jsonb) as x (project_id uuid, key text, fingerprint text, record_id uuid)
   ), stored as (
     insert into idempotency_entries as e (account_id, project_id, key, fingerprint, record_id, expires_at)
     select $2::uuid, project_id, key, fingerprint, record_id, now() + make_interval(hours => ${KEEP_HOURS})
       from entries
     on conflict (project_id, key) do update set
       fingerprint = excluded.fingerprint, record_id = excluded.record_id, response = null,
       expires_at = excluded.expires_at, created_at = now()
       where e.expires_at < now()
     returning 1)
   select mmw_require((select count(*) from stored) = (select count(*) from entries), $3)`;

/** The record a request stored, to keep under its X-Idempotency-Key. */
export interface IdempotentAnswer {
  caller: Caller;
  key: string;
  fingerprint: string;
  recordId: string;
}

/**
 * Stores the answers under their keys, in the records' own transaction and after them, in one
 * statement sent with the commit, in its round trip. A concurrent request with the same key waits on
 * the unique index until the first transaction ends; an expired entry is taken over. When a key holds
 * a live earlier answer, the commit fails (idempotencyKeyHeld tells that failure apart): the records
 * roll back, and the request of that key replays that answer.
 */
export async function storeIdempotentAnswers(
  tx: Db,
  accountId: string,
  answers: IdempotentAnswer[],
): Promise<void> {
  if (answers.length === 0) return;
  const entries = answers.map(({ caller, key, fingerprint, recordId }) => ({
    project_id: caller.projectId,
    key,
    fingerprint,
    record_id: recordId,
  }));
  await deferredSqlOn(tx)(STORE_ANSWERS, [JSON.stringify(entries), accountId, KEY_HELD_FAILURE]);
}

/** True when the error is storeIdempotentAnswers's refusal: the key holds an earlier answer. */
export function idempotencyKeyHeld(error: unknown): boolean {
  return failedRequirement(error) === KEY_HELD_FAILURE;
}

/**
 * The answer given under the key, when the request is the same (same fingerprint); undefined when
 * the key holds nothing live. A different request under a used key is a conflict. Entries stored
 * before answers were rebuilt from their records keep the answer itself.
 */
export async function earlierAnswer(
  tx: Db,
  caller: Caller,
  key: string,
  fingerprint: string,
): Promise<RecordView | undefined> {
  const [earlier] = await tx
    .select({
      fingerprint: idempotencyEntries.fingerprint,
      recordId: idempotencyEntries.recordId,
      response: idempotencyEntries.response,
    })
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
  if (earlier.response !== null) return earlier.response as RecordView;
  return earlier.recordId === null ? undefined : rememberedAnswer(tx, caller, earlier.recordId);
}
