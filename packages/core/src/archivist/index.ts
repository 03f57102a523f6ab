/** The archivist: links a new record to recent ones, marks outdated ones, and expands queries. */
export {
  createBuiltInAnalyser,
  type Analyser,
  type Analysis,
  type AnalysisInput,
  type ArchivistRecord,
  type ProposedMark,
  type ProposedRelation,
  type RelationKind,
} from './analyser.ts';
export { createModelAnalyser, type ModelAnalyserOptions } from './model-analyser.ts';
export {
  createBuiltInExpander,
  createModelExpander,
  isAbstractQuery,
  type ExpansionContext,
  type ModelExpanderOptions,
  type QueryExpander,
} from './query-expansion.ts';
export type { ModelEndpoint } from './chat-completion.ts';
