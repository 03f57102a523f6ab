import { z } from 'zod';
import { withTenant, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { describeRecords } from './describe-records.ts';
import { findMatches, latestRecords } from './find-matches.ts';
import { clampLimit, splitQueryWords } from './query-words.ts';
import { assertNoNul, validateWorkspaceName } from './record-input.ts';
import { recordViewSchema, type RecordView } from './record-view.ts';
import { findWorkspace } from './workspaces.ts';
import { auditHandedOverReads } from '../handover/handed-over-reads.ts';

export const searchInputShape = {
  query: z.string().describe('What to look for, in plain words. An empty query returns the latest records.'),
  workspace: z.string().optional().describe('Workspace to search; "default" when omitted. Must already exist.'),
  scope: z.string().nullish().describe('Only records with this label, such as "shared" or "private".'),
  limit: z.number().nullish().describe('How many records to return, 1 to 50; default 10. Outside values are clamped.'),
  current_source_hash: z
    .string()
    .nullish()
    .describe('The current hash of the source you are looking at: records saved with another hash show as stale.'),
  exclude_stale: z.boolean().nullish().describe('Leave out records whose status is stale.'),
};

export type SearchInput = z.infer<z.ZodObject<typeof searchInputShape>>;

export const searchOutputShape = {
  result: z.array(recordViewSchema),
};

export interface SearchOutput {
  result: RecordView[];
}

/** search reads only: nothing is created or changed. */
export async function searchRecords(db: Db, caller: Caller, input: SearchInput): Promise<SearchOutput> {
  assertNoNul('query', input.query);
  if (input.query.length > 2_000) throw new AppError('invalid_input', 'query is too long: at most 2000 characters');
  const workspaceName = validateWorkspaceName(input.workspace);
  const limit = clampLimit(input.limit);
  const currentSourceHash = input.current_source_hash?.trim() || null;
  const excludeStale = input.exclude_stale ?? false;
  // Stale records that are left out free their places for others.
  const wanted = excludeStale ? Math.min(limit * 4, 200) : limit;
  return withTenant(db, caller.accountId, async (tx) => {
    const workspace = await findWorkspace(tx, caller, workspaceName);
    const where = { workspaceId: workspace.id, scope: input.scope?.trim() || null };
    const words = splitQueryWords(input.query);
    const found =
      words.length === 0
        ? await latestRecords(tx, caller, where, wanted)
        : await findMatches(tx, caller, where, words, wanted);
    const views = await describeRecords(tx, caller, found.rows, { currentSourceHash, scores: found.scores });
    const kept = excludeStale ? views.filter((view) => view.status !== 'stale') : views;
    const result = kept.slice(0, limit);
    await auditHandedOverReads(tx, caller, result.map((view) => view.id), 'search');
    return { result };
  });
}
