import { z } from 'zod';

/** docs/export-format.md: the first line names the format and its version; a reader refuses any other. */
export const EXPORT_FORMAT = 'mmw-export';
export const EXPORT_FORMAT_VERSION = 1;
/** The longest line an import reads (a record's fields are far below it: content is 20,000 characters). */
export const MAX_LINE_BYTES = 256 * 1024;
/** The largest file the dashboard accepts as an upload; the CLI reads any size, line by line. */
export const MAX_UPLOAD_BYTES = 4 * 1024 * 1024;

const iso = z.iso.datetime({ offset: true });
const uuid = z.uuid();

export const headerLineSchema = z.strictObject({
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int(),
  exported_at: iso,
  /** Who exported: the instance (its public address, or null) and the account. */
  source: z.strictObject({ instance: z.string().max(500).nullable(), account_id: uuid }),
  /** What was exported: the whole account, a project, or a workspace. */
  scope: z.strictObject({ project: z.string().nullable(), workspace: z.string().nullable() }),
});
export type HeaderLine = z.infer<typeof headerLineSchema>;

export const recordLineSchema = z.strictObject({
  type: z.literal('record'),
  id: uuid,
  project: z.string(),
  workspace: z.string(),
  content: z.string(),
  fact_key: z.string().nullable(),
  source: z.string(),
  source_id: z.string().nullable(),
  source_hash: z.string().nullable(),
  source_revision: z.string().nullable(),
  confidence: z.number(),
  scope: z.string().nullable(),
  derived_from: z.array(uuid),
  /** The newer version of the same fact_key; null for the newest. */
  superseded_by: uuid.nullable(),
  archivist_mark: z.enum(['stale', 'refined']).nullable(),
  archivist_reason: z.string().nullable(),
  /** The author's email: an id would mean nothing on another instance. */
  author: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
});
export type RecordLine = z.infer<typeof recordLineSchema>;

/** A forgotten record: its place and times, never its content. */
export const tombstoneLineSchema = z.strictObject({
  type: z.literal('tombstone'),
  id: uuid,
  project: z.string(),
  workspace: z.string(),
  superseded_by: uuid.nullable(),
  created_at: iso,
  deleted_at: iso,
});
export type TombstoneLine = z.infer<typeof tombstoneLineSchema>;

export const relationLineSchema = z.strictObject({
  type: z.literal('relation'),
  from: uuid,
  to: uuid,
  relation: z.enum(['relates_to', 'fixes_issue', 'supersedes']),
  weight: z.number(),
  reason: z.string().nullable(),
  created_at: iso,
});
export type RelationLine = z.infer<typeof relationLineSchema>;

export const leftOutSchema = z.strictObject({
  /** Records in the exported scope that the exporter may not read. */
  records_not_visible: z.number().int(),
  /** Relations with one end among the records left out. */
  relations_to_left_out_records: z.number().int(),
  /** Ids in derived_from or superseded_by that point at records left out, removed from the lines. */
  references_to_left_out_records: z.number().int(),
});

/** The last line: what the file holds, and what was left out and why. A file without it is cut short. */
export const summaryLineSchema = z.strictObject({
  type: z.literal('summary'),
  records: z.number().int(),
  tombstones: z.number().int(),
  relations: z.number().int(),
  left_out: leftOutSchema,
});
export type SummaryLine = z.infer<typeof summaryLineSchema>;

export const bodyLineSchema = z.discriminatedUnion('type', [
  recordLineSchema,
  tombstoneLineSchema,
  relationLineSchema,
  summaryLineSchema,
]);
export type BodyLine = z.infer<typeof bodyLineSchema>;
