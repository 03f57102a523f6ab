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
  isAbstractQuery,
  type ExpansionContext,
  type QueryExpander,
} from './query-expansion.ts';
export { createModelExpander, type ModelExpanderOptions } from './model-expander.ts';
export type { ModelEndpoint } from './chat-completion.ts';
