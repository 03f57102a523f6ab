import { z } from 'zod';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { records, withTenant, type Db } from '@mmw/db';
import { isAbstractQuery } from '../archivist/abstract-query.ts';
import type { ExpansionContext, QueryExpander } from '../archivist/query-expansion.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { describeRecords } from './describe-records.ts';
import { findMatches, latestRecords, type Matches } from './find-matches.ts';
import { queryTerms, type QueryTerm } from './query-terms.ts';
import { clampLimit, splitQueryWords } from './query-words.ts';
import { assertNoNul, validateWorkspaceName } from './record-input.ts';
import { recordViewSchema, type RecordView } from './record-view.ts';
import { findWorkspace, type WorkspaceRef } from './workspaces.ts';
import { auditHandedOverCount } from '../handover/handed-over-reads.ts';

export const searchInputShape = {
  query: z.string().describe('What to look for, in plain words. An empty query returns the latest records.'),
  workspace: z
    .string()
    .optional()
    .describe('Workspace to search; "default" when omitted. Must already exist.'),
  scope: z.string().nullish().describe('Only records with this label, such as "shared" or "private".'),
  limit: z
    .number()
    .nullish()
    .describe('How many records to return, 1 to 50; default 10. Outside values are clamped.'),
  current_source_hash: z
    .string()
    .nullish()
    .describe(
      'The current hash of the source you are looking at: records saved with another hash show as stale.',
    ),
  exclude_stale: z.boolean().nullish().describe('Leave out records whose status is stale.'),
};

export type SearchInput = z.infer<z.ZodObject<typeof searchInputShape>>;

export const searchOutputShape = {
  result: z.array(recordViewSchema),
  expanded_terms: z
    .array(z.string())
    .optional()
    .describe('Terms added to the query when nothing matched or the query was abstract.'),
};

export interface SearchOutput {
  result: RecordView[];
  expanded_terms?: string[];
}

const VOCABULARY_RECORDS = 200;
/**
 * Past the window, the expanded pass scores this many older rows, newest first: an expanded query
 * holds a dozen or more words, common ones among them, and finding its levels in the whole of a
 * large workspace costs hundreds of milliseconds (docs/decisions/0006-search-plan.md).
 */
const EXPANSION_HORIZON = 1_600;

/** The recent records of the workspace whose words expansion may draw on. */
async function workspaceVocabulary(tx: Db, caller: Caller, workspaceId: string): Promise<ExpansionContext> {
  const vocabulary = await tx
    .select({ content: records.content, factKey: records.factKey })
    .from(records)
    .where(
      and(eq(records.workspaceId, workspaceId), isNull(records.deletedAt), visibleRecords(caller, records)),
    )
    .orderBy(desc(records.updatedAt))
    .limit(VOCABULARY_RECORDS);
  return { vocabulary };
}

const tsqueries = (terms: QueryTerm[]) => terms.map((term) => term.tsquery);

/** search reads only: nothing is created or changed. */
export async function searchRecords(
  db: Db,
  caller: Caller,
  input: SearchInput,
  expander?: QueryExpander,
): Promise<SearchOutput> {
  assertNoNul('query', input.query);
  if (input.query.length > 2_000)
    throw new AppError('invalid_input', 'query is too long: at most 2000 characters');
  const workspaceName = validateWorkspaceName(input.workspace);
  const limit = clampLimit(input.limit);
  const currentSourceHash = input.current_source_hash?.trim() || null;
  const excludeStale = input.exclude_stale ?? false;
  // Stale records that are left out free their places for others.
  const wanted = excludeStale ? Math.min(limit * 4, 200) : limit;
  const scopeLabel = input.scope?.trim() || null;
  const words = splitQueryWords(input.query);
  const finish = async (
    tx: Db,
    workspace: WorkspaceRef,
    found: Matches,
    added?: string[],
  ): Promise<SearchOutput> => {
    const views = await describeRecords(tx, caller, found.rows, {
      currentSourceHash,
      scores: found.scores,
      workspace,
    });
    const kept = excludeStale ? views.filter((view) => view.status !== 'stale') : views;
    const result = kept.slice(0, limit);
    const handedOver = result.filter((view) => found.handedOver.has(view.id)).length;
    await auditHandedOverCount(tx, caller, handedOver, 'search');
    return { result, ...(added === undefined ? {} : { expanded_terms: added }) };
  };
  // First pass. When it needs no expansion, the answer is complete within this one transaction.
  type FirstPass = { done: SearchOutput } | { found: Matches; vocabulary: ExpansionContext };
  const first = await withTenant(db, caller.accountId, async (tx): Promise<FirstPass> => {
    const workspace = await findWorkspace(tx, caller, workspaceName);
    const where = { workspaceId: workspace.id, scope: scopeLabel };
    const found =
      words.length === 0
        ? await latestRecords(tx, caller, where, wanted)
        : await findMatches(tx, caller, where, tsqueries(await queryTerms(tx, words)), wanted);
    // Nothing matched, or the query is abstract: expand it and search again, also over fact_key.
    const expand = expander && words.length > 0 && (found.rows.length === 0 || isAbstractQuery(words));
    if (!expand) return { done: await finish(tx, workspace, found) };
    return { found, vocabulary: await workspaceVocabulary(tx, caller, workspace.id) };
  });
  if ('done' in first) return first.done;
  // The expander may call the model: no connection is held while it answers (the first transaction
  // has committed), so a slow model cannot starve other requests of the pool.
  const terms = expander ? await expander.expand(words, first.vocabulary) : [];
  const fresh = splitQueryWords(terms.join(' ')).filter((term) => !words.includes(term));
  return withTenant(db, caller.accountId, async (tx) => {
    const workspace = await findWorkspace(tx, caller, workspaceName);
    const where = { workspaceId: workspace.id, scope: scopeLabel };
    if (fresh.length > 0) {
      const expanded = await findMatches(
        tx,
        caller,
        { ...where, includeFactKey: true },
        tsqueries(await queryTerms(tx, words, fresh)),
        wanted,
        { horizon: EXPANSION_HORIZON },
      );
      if (expanded.rows.length > 0) return finish(tx, workspace, expanded, fresh);
    }
    return finish(tx, workspace, first.found);
  });
}
