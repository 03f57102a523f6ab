import { defaultTuning, judgePair, type AnalyserTuning } from './pair-judgement.ts';
import { profileRecord } from './record-profile.ts';
import { cosine, createCorpus } from './similarity.ts';
import type { Analyser, Analysis, AnalysisInput, ProposedMark, ProposedRelation } from './archivist-types.ts';

export type {
  Analyser,
  Analysis,
  AnalysisInput,
  ArchivistRecord,
  ProposedMark,
  ProposedRelation,
  RelationKind,
} from './archivist-types.ts';

export function roundWeight(weight: number): number {
  return Math.round(Math.min(1, Math.max(0, weight)) * 100) / 100;
}

/**
 * The analyser used when no model is configured: TF-IDF similarity over the record and its
 * candidates (stemmed), fact_key and source_id, issue and fix language, and contradicting values.
 * Deterministic: the same input always gives the same analysis.
 */
export function createBuiltInAnalyser(tuning: AnalyserTuning = defaultTuning): Analyser {
  return {
    analyse: (input) => Promise.resolve(analyseWithRules(input, tuning)),
  };
}

export function analyseWithRules({ record, candidates }: AnalysisInput, tuning: AnalyserTuning): Analysis {
  const next = profileRecord(record);
  // Each candidate once, and never the record itself.
  const unique = new Map(candidates.filter((candidate) => candidate.id !== record.id).map((c) => [c.id, c]));
  const priors = [...unique.values()].map(profileRecord);
  const corpus = createCorpus([next.termList, ...priors.map((prior) => prior.termList)]);
  const nextVector = corpus.vector(next.termList);

  const relations: ProposedRelation[] = [];
  const marks: ProposedMark[] = [];
  let related = 0;
  const judged = priors
    .map((prior) => {
      const similarity = cosine(nextVector, corpus.vector(prior.termList));
      return { prior, judgement: judgePair(next, prior, similarity, tuning) };
    })
    .sort((a, b) => (b.judgement?.weight ?? 0) - (a.judgement?.weight ?? 0));

  for (const { prior, judgement } of judged) {
    if (judgement === null) continue;
    if (judgement.relation === 'relates_to' && judgement.mark === null) {
      related += 1;
      if (related > tuning.maxRelated) continue;
    }
    relations.push({
      fromId: record.id,
      toId: prior.record.id,
      relation: judgement.relation,
      weight: roundWeight(judgement.weight),
      reason: judgement.reason,
    });
    if (judgement.mark !== null) marks.push({ recordId: prior.record.id, ...judgement.mark });
  }
  return { relations, marks };
}

export { defaultTuning, type AnalyserTuning };
