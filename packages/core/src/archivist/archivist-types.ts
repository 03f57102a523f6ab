// What the archivist reads and proposes, apart from the analysers that produce it, so that the
// analyser, its pair judgement and the record profiles share them without importing each other.

export interface ArchivistRecord {
  id: string;
  content: string;
  factKey: string | null;
  sourceId: string | null;
  sourceHash: string | null;
  createdAt: Date;
}

export type RelationKind = 'relates_to' | 'fixes_issue' | 'supersedes';

export interface ProposedRelation {
  /** Always the record being analysed. */
  fromId: string;
  /** Always one of the candidates. */
  toId: string;
  relation: RelationKind;
  /** 0..1, two decimals. */
  weight: number;
  reason: string;
}

export interface ProposedMark {
  recordId: string;
  mark: 'stale' | 'refined';
  reason: string;
}

export interface Analysis {
  relations: ProposedRelation[];
  marks: ProposedMark[];
}

export interface AnalysisInput {
  record: ArchivistRecord;
  /** Recent records of the same workspace that the author may see. */
  candidates: ArchivistRecord[];
}

export interface Analyser {
  analyse(input: AnalysisInput): Promise<Analysis>;
}
