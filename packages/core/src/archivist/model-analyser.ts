import { z } from 'zod';
import { buildAnalyserPrompt } from './analyser-prompt.ts';
import {
  defaultTuning,
  roundWeight,
  type Analyser,
  type Analysis,
  type ProposedMark,
  type ProposedRelation,
} from './analyser.ts';
import { ModelCallError, requestJsonCompletion, type ModelEndpoint } from './chat-completion.ts';

export interface ModelAnalyserOptions extends ModelEndpoint {
  /** Used whenever the model gives no usable answer. */
  fallback: Analyser;
  /** Told why the model was not used ("timeout", "http 500", "malformed", "schema", "refusal", …). */
  onFallback?: (reason: string) => void;
}

const reasonSchema = z.string().max(2000).default('');
const answerSchema = z.object({
  relations: z
    .array(
      z.object({
        to: z.string(),
        relation: z.enum(['relates_to', 'fixes_issue', 'supersedes']),
        weight: z.number().min(0).max(1),
        reason: reasonSchema,
      }),
    )
    .max(200),
  marks: z
    .array(z.object({ record: z.string(), mark: z.enum(['stale', 'refined']), reason: reasonSchema }))
    .max(200)
    .default([]),
});
type Answer = z.infer<typeof answerSchema>;

/**
 * The archivist with a language model behind an OpenAI-compatible API. The answer is validated;
 * links to anything but the given candidates are dropped; on any failure the fallback answers.
 */
export function createModelAnalyser(options: ModelAnalyserOptions): Analyser {
  return {
    async analyse(input) {
      const prompt = buildAnalyserPrompt(input);
      if (prompt.refs.size === 0) return { relations: [], marks: [] };
      try {
        const parsed = answerSchema.safeParse(await requestJsonCompletion(options, prompt.messages));
        if (!parsed.success) throw new ModelCallError('schema', 'schema');
        return toAnalysis(parsed.data, input.record.id, prompt.refs);
      } catch (error) {
        if (!(error instanceof ModelCallError)) throw error;
        options.onFallback?.(error.failure === 'http' ? error.message : error.failure);
        return options.fallback.analyse(input);
      }
    },
  };
}

function toAnalysis(answer: Answer, recordId: string, refs: Map<string, string>): Analysis {
  const relations = new Map<string, ProposedRelation>();
  for (const proposed of answer.relations) {
    const toId = refs.get(proposed.to.trim().toUpperCase());
    if (toId === undefined || toId === recordId || relations.has(toId)) continue;
    relations.set(toId, {
      fromId: recordId,
      toId,
      relation: proposed.relation,
      weight: roundWeight(proposed.weight),
      reason: cleanReason(proposed.reason, proposed.relation),
    });
  }
  // Like the built-in analyser: every fix and newer version, but only the strongest plain links.
  let related = 0;
  for (const relation of [...relations.values()].sort((a, b) => b.weight - a.weight)) {
    if (relation.relation !== 'relates_to') continue;
    related += 1;
    if (related > defaultTuning.maxRelated) relations.delete(relation.toId);
  }
  const marks = new Map<string, ProposedMark>();
  for (const proposed of answer.marks) {
    const recordIdOfMark = refs.get(proposed.record.trim().toUpperCase());
    if (recordIdOfMark === undefined || marks.has(recordIdOfMark)) continue;
    // A mark must follow from a link the model also proposes: "stale" only with "supersedes".
    const link = relations.get(recordIdOfMark);
    if (link === undefined || (proposed.mark === 'stale' && link.relation !== 'supersedes')) continue;
    marks.set(recordIdOfMark, {
      recordId: recordIdOfMark,
      mark: proposed.mark,
      reason: cleanReason(proposed.reason, `${proposed.mark} by record ${recordId}`),
    });
  }
  return { relations: [...relations.values()], marks: [...marks.values()] };
}

function cleanReason(reason: string, otherwise: string): string {
  const clean = reason.replace(/\s+/g, ' ').trim().slice(0, 300);
  return clean === '' ? otherwise : clean;
}
