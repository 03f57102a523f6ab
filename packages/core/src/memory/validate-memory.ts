import { and, desc, eq, isNull } from 'drizzle-orm';
import { records, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { describeRecords } from './describe-records.ts';
import { recordColumns } from './record-columns.ts';
import { assertNoNul, validateWorkspaceName } from './record-input.ts';
import { recordViewSchema, type RecordView } from './record-view.ts';
import { findWorkspace } from './workspaces.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { auditHandedOverReads } from '../handover/handed-over-reads.ts';

const REPORT_MAX = 500;

export const validateInputShape = {
  source_id: z.string().describe('The source to check, as saved in source_id, e.g. "docs/deploy.md".'),
  current_source_hash: z.string().describe('The hash of the source as it is now.'),
  workspace: z.string().optional().describe('Workspace to check; "default" when omitted.'),
};
export type ValidateInput = z.infer<z.ZodObject<typeof validateInputShape>>;

export const validateOutputShape = {
  workspace: z.string(),
  source_id: z.string(),
  current_source_hash: z.string(),
  checked: z.number(),
  stale_count: z.number(),
  fresh_count: z.number(),
  unknown_count: z.number(),
  stale: z.array(recordViewSchema),
  fresh: z.array(recordViewSchema),
  unknown: z.array(recordViewSchema),
  truncated: z.boolean(),
};
export interface ValidateOutput {
  workspace: string;
  source_id: string;
  current_source_hash: string;
  checked: number;
  stale_count: number;
  fresh_count: number;
  unknown_count: number;
  stale: RecordView[];
  fresh: RecordView[];
  unknown: RecordView[];
  truncated: boolean;
}

/**
 * Checks every record saved from one source against the source's current hash: records saved with
 * another hash are stale, records with the same hash are fresh, records saved without a hash are unknown.
 */
export async function validateMemory(db: Db, caller: Caller, input: ValidateInput): Promise<ValidateOutput> {
  const sourceId = input.source_id.trim();
  const currentHash = input.current_source_hash.trim();
  assertNoNul('source_id', sourceId);
  assertNoNul('current_source_hash', currentHash);
  if (sourceId === '') throw new AppError('invalid_input', 'source_id must not be empty');
  if (currentHash === '') throw new AppError('invalid_input', 'current_source_hash must not be empty');
  const workspaceName = validateWorkspaceName(input.workspace);
  return withTenant(db, caller.accountId, async (tx) => {
    const workspace = await findWorkspace(tx, caller, workspaceName);
    const rows = await tx
      .select(recordColumns)
      .from(records)
      .where(
        and(
          eq(records.accountId, caller.accountId),
          eq(records.workspaceId, workspace.id),
          eq(records.sourceId, sourceId),
          isNull(records.deletedAt),
          visibleRecords(caller, records),
        ),
      )
      .orderBy(desc(records.updatedAt))
      .limit(REPORT_MAX + 1);
    const truncated = rows.length > REPORT_MAX;
    const views = await describeRecords(tx, caller, rows.slice(0, REPORT_MAX), {
      currentSourceHash: currentHash,
    });
    const stale = views.filter((view) => view.source_hash !== null && view.source_hash !== currentHash);
    const fresh = views.filter((view) => view.source_hash === currentHash);
    const unknown = views.filter((view) => view.source_hash === null);
    await auditHandedOverReads(
      tx,
      caller,
      views.map((view) => view.id),
      'validate_memory',
    );
    return {
      workspace: workspace.name,
      source_id: sourceId,
      current_source_hash: currentHash,
      checked: views.length,
      stale_count: stale.length,
      fresh_count: fresh.length,
      unknown_count: unknown.length,
      stale,
      fresh,
      unknown,
      truncated,
    };
  });
}
