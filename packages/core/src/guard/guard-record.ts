/**
 * The Memory Guard for one record: reject planted instructions, then redact secrets, across every
 * text field (content, fact_key, source_id, source_revision, scope, ...).
 */
import { AppError, messages } from '../errors.ts';
import type { InjectionJudge } from './injection/model-judge.ts';
import { detectPlantedInstruction, judgePlantedInstruction } from './planted-instructions.ts';
import { findSecrets, redactFindings } from './redact-secrets.ts';
import type { SecretFinding } from './secret-finding.ts';

export interface GuardedRecord<T> {
  /** The same fields with every secret replaced by `[REDACTED:<kind>]`; null and undefined kept. */
  readonly fields: T;
  readonly redactions: Array<{ field: string; kind: string }>;
}

/** What the Guard decided: the guarded record, or the reason it was refused (never the content). */
export type RecordCheck<T> = { readonly refused: string } | ({ readonly refused?: undefined } & GuardedRecord<T>);

/**
 * The most the Guard reads of one field: above every field's own limit (content is 20,000
 * characters), so only a caller that skipped validation meets it, and is refused unread.
 */
export const GUARD_READ_LIMIT = 65_536;

export async function checkRecord<T extends Record<string, string | null | undefined>>(
  fields: T,
  /** A model judge for scores in the uncertain band (never inside the pool's workers). */
  options: { judge?: InjectionJudge | undefined } = {},
): Promise<RecordCheck<T>> {
  for (const value of Object.values(fields)) {
    if (typeof value === 'string' && value.length > GUARD_READ_LIMIT) {
      return { refused: 'the record could not be checked in time' };
    }
  }
  for (const value of Object.values(fields)) {
    if (typeof value !== 'string') continue;
    const planted =
      options.judge === undefined ? detectPlantedInstruction(value) : await judgePlantedInstruction(value, options.judge);
    if (planted !== null) return { refused: planted.reason };
  }
  const guarded: Record<string, string | null | undefined> = { ...fields };
  const redactions: Array<{ field: string; kind: string }> = [];
  const own = new Map<string, SecretFinding[]>();
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === 'string' && value !== '') own.set(field, await findSecrets(value));
  }
  const across = await secretsAcrossFields(fields, own);
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const result = redactFindings(value, [...(own.get(field) ?? []), ...(across.get(field) ?? [])]);
    guarded[field] = result.text;
    for (const kind of result.kinds) redactions.push({ field, kind });
  }
  return { fields: guarded as T, redactions };
}

/**
 * The Guard on this thread. Throws `AppError('guard_rejected')` naming only the reason (never the
 * content) when any field reads as an instruction to the agent that will later read the memory.
 * The server runs it in the guard pool (guard-pool.ts), off the event loop and under a budget.
 */
export async function guardRecord<T extends Record<string, string | null | undefined>>(
  fields: T,
  options: { judge?: InjectionJudge | undefined } = {},
): Promise<GuardedRecord<T>> {
  const check = await checkRecord(fields, options);
  if (check.refused !== undefined) throw new AppError('guard_rejected', messages.guardRejected(check.refused));
  return check;
}

/**
 * A secret split between fields (the start in content, the rest in fact_key): the fields are
 * joined in order and scanned; a finding that crosses a field's edge is redacted in each field.
 */
async function secretsAcrossFields(
  fields: Record<string, string | null | undefined>,
  /** Each field's own findings, by field. */
  own: ReadonlyMap<string, readonly SecretFinding[]>,
): Promise<Map<string, SecretFinding[]>> {
  const parts = Object.entries(fields).flatMap(([field, value]) =>
    typeof value === 'string' && value !== '' ? [{ field, value }] : [],
  );
  const byField = new Map<string, SecretFinding[]>();
  if (parts.length < 2) return byField;
  let offset = 0;
  const placed = parts.map((part) => {
    const start = offset;
    offset += part.value.length;
    return { ...part, start, end: offset };
  });
  // A finding that crosses an edge only counts where no field's own scan explains it (a token at
  // the end of content followed by a fact_key that begins with letters is the field's own).
  const explained = (field: string, start: number, end: number) =>
    (own.get(field) ?? []).some((finding) => finding.start < end && finding.end > start);
  for (const finding of await findSecrets(placed.map((part) => part.value).join(''))) {
    const touched = placed.filter((part) => finding.start < part.end && finding.end > part.start);
    if (touched.length < 2) continue;
    const ownFinding = touched.some((part) =>
      explained(
        part.field,
        Math.max(finding.start, part.start) - part.start,
        Math.min(finding.end, part.end) - part.start,
      ),
    );
    if (ownFinding) continue;
    for (const part of touched) {
      const list = byField.get(part.field) ?? [];
      list.push({
        ...finding,
        start: Math.max(finding.start, part.start) - part.start,
        end: Math.min(finding.end, part.end) - part.start,
      });
      byField.set(part.field, list);
    }
  }
  return byField;
}
