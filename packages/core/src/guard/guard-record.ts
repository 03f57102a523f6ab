/**
 * The Memory Guard for one record: reject planted instructions, then redact secrets, across every
 * text field (content, fact_key, source_id, source_revision, scope, ...).
 */
import { AppError, messages } from '../errors.ts';
import type { InjectionJudge } from './injection/model-judge.ts';
import { judgePlantedInstruction } from './planted-instructions.ts';
import { redactSecrets } from './redact-secrets.ts';

export interface GuardedRecord<T> {
  /** The same fields with every secret replaced by `[REDACTED:<kind>]`; null and undefined kept. */
  readonly fields: T;
  readonly redactions: Array<{ field: string; kind: string }>;
}

/**
 * Throws `AppError('guard_rejected')` naming only the reason (never the content) when any field
 * reads as an instruction to the agent that will later read the memory.
 */
export async function guardRecord<T extends Record<string, string | null | undefined>>(
  fields: T,
  options: { judge?: InjectionJudge | undefined } = {},
): Promise<GuardedRecord<T>> {
  for (const value of Object.values(fields)) {
    if (typeof value !== 'string') continue;
    const planted = await judgePlantedInstruction(value, options.judge);
    if (planted !== null) throw new AppError('guard_rejected', messages.guardRejected(planted.reason));
  }
  const guarded: Record<string, string | null | undefined> = { ...fields };
  const redactions: Array<{ field: string; kind: string }> = [];
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value !== 'string') continue;
    const result = await redactSecrets(value);
    guarded[field] = result.text;
    for (const kind of result.kinds) redactions.push({ field, kind });
  }
  return { fields: guarded as T, redactions };
}
