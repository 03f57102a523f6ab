import { z } from 'zod';
import type { RecordStatus } from './status.ts';

export const graphRelationSchema = z.object({
  relation: z.enum(['relates_to', 'fixes_issue', 'supersedes']),
  direction: z.enum(['outgoing', 'incoming']),
  weight: z.number(),
  target_id: z.string(),
  preview: z.string(),
});

export const recordViewSchema = z.object({
  id: z.string(),
  workspace: z.string(),
  scope: z.string().nullable(),
  content: z.string(),
  source: z.string(),
  source_id: z.string().nullable(),
  source_hash: z.string().nullable(),
  source_revision: z.string().nullable(),
  fact_key: z.string().nullable(),
  confidence: z.number(),
  status: z.enum(['unverified', 'stale', 'conflict']),
  derived_from: z.array(z.string()),
  superseded_by: z.string().nullable(),
  score: z.number().optional(),
  graph_relations: z.array(graphRelationSchema),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A `[MMW Notice]: …` that comes with results, e.g. while a payment is past due. */
export const noticeShape = { notice: z.string().optional() };

export type GraphRelation = z.infer<typeof graphRelationSchema>;
export type RecordView = z.infer<typeof recordViewSchema>;

/** The columns every read selects. */
export interface RecordRow {
  id: string;
  workspaceId: string;
  content: string;
  source: string;
  sourceId: string | null;
  sourceHash: string | null;
  sourceRevision: string | null;
  factKey: string | null;
  confidence: number;
  scope: string | null;
  derivedFrom: string[];
  supersededBy: string | null;
  archivistMark: 'stale' | 'refined' | null;
  createdAt: Date;
  updatedAt: Date;
}

export function toRecordView(
  row: RecordRow,
  details: { workspace: string; status: RecordStatus; graph: GraphRelation[]; score?: number },
): RecordView {
  return {
    id: row.id,
    workspace: details.workspace,
    scope: row.scope,
    content: row.content,
    source: row.source,
    source_id: row.sourceId,
    source_hash: row.sourceHash,
    source_revision: row.sourceRevision,
    fact_key: row.factKey,
    confidence: row.confidence,
    status: details.status,
    derived_from: row.derivedFrom,
    superseded_by: row.supersededBy,
    ...(details.score === undefined ? {} : { score: details.score }),
    graph_relations: details.graph,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
