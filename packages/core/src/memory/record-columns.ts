import { records } from '@mmw/db';

/** The columns of RecordRow, for select(). */
export const recordColumns = {
  id: records.id,
  workspaceId: records.workspaceId,
  content: records.content,
  source: records.source,
  sourceId: records.sourceId,
  sourceHash: records.sourceHash,
  sourceRevision: records.sourceRevision,
  factKey: records.factKey,
  confidence: records.confidence,
  scope: records.scope,
  derivedFrom: records.derivedFrom,
  supersededBy: records.supersededBy,
  archivistMark: records.archivistMark,
  createdAt: records.createdAt,
  updatedAt: records.updatedAt,
};
