import { AppError, messages } from '../errors.ts';
import type { GuardPool, InjectionJudge } from '../guard/index.ts';
import { judgePlantedInstruction } from '../guard/planted-instructions.ts';
import type { ValidRememberInput } from './record-input.ts';

/**
 * The Memory Guard over one validated record: its fields with secrets redacted, or
 * AppError('guard_rejected') naming the reason. What remember and an import both pass a record through.
 */
export type InputGuard = (valid: ValidRememberInput) => Promise<ValidRememberInput>;

/**
 * The Guard pool's verdict on every text field; where a model judge is configured, it looks at what
 * the built-in verdict let through, and may still refuse a record whose score lies in the uncertain
 * band (this runs on the event loop, over text the pool has already checked in time).
 */
export function createInputGuard(pool: GuardPool, judge?: InjectionJudge): InputGuard {
  return async (valid) => {
    const { fields } = await pool.guard({
      workspace: valid.workspace,
      content: valid.content,
      fact_key: valid.factKey,
      source_id: valid.sourceId,
      source_hash: valid.sourceHash,
      source_revision: valid.sourceRevision,
      scope: valid.scope,
    });
    // A workspace name is shown and searched by: a secret in it refuses the record, never a placeholder.
    if (fields.workspace !== valid.workspace) {
      throw new AppError('guard_rejected', messages.guardRejected('a secret in the workspace name'));
    }
    if (judge !== undefined) {
      const texts = [valid.workspace, valid.content, valid.factKey, valid.sourceId, valid.sourceRevision, valid.scope];
      for (const value of texts) {
        if (typeof value !== 'string') continue;
        const planted = await judgePlantedInstruction(value, judge);
        if (planted !== null) throw new AppError('guard_rejected', messages.guardRejected(planted.reason));
      }
    }
    return {
      ...valid,
      content: fields.content,
      factKey: fields.fact_key,
      sourceId: fields.source_id,
      sourceHash: fields.source_hash,
      sourceRevision: fields.source_revision,
      scope: fields.scope,
    };
  };
}
