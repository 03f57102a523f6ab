import {
  browseRecords,
  browseRecordsInputSchema,
  browseRecordsOutputSchema,
  factKeyVersions,
  getRecordPage,
  recordPageSchema,
  resolveConflict,
  resolveConflictInputSchema,
  forgetOutputShape,
  forgetWorkspaceRecord,
  listWorkspaces,
  purgeRecord,
  purgeRecordInputSchema,
  purgeRecordOutputSchema,
  recordViewSchema,
  searchOutputShape,
  searchWorkspace,
  workspaceSummarySchema,
} from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';

const inProject = z.object({ projectId: z.uuid() });

export const workspacesRouter = router({
  list: orgMemberProcedure
    .input(inProject)
    .output(z.array(workspaceSummarySchema))
    .query(({ ctx, input }) => listWorkspaces(ctx.deps.db, ctx.member, input.projectId)),

  /** Browse (empty query) or search: the same core search as the MCP tool, as this member. */
  search: orgMemberProcedure
    .input(
      inProject.extend({
        workspace: z.string().max(100),
        query: z.string().max(2000),
        limit: z.number().int().optional(),
        scope: z.string().max(100).optional(),
        excludeStale: z.boolean().optional(),
      }),
    )
    .output(z.object(searchOutputShape))
    .query(({ ctx, input }) =>
      searchWorkspace(
        ctx.deps.db,
        ctx.member,
        input.projectId,
        { query: input.query, workspace: input.workspace, limit: input.limit, scope: input.scope, exclude_stale: input.excludeStale },
        ctx.deps.expander,
      ),
    ),

  /** A page of live records with the total, filtered; older versions of a fact_key folded under the newest. */
  browse: orgMemberProcedure
    .input(browseRecordsInputSchema)
    .output(browseRecordsOutputSchema)
    .query(({ ctx, input }) => browseRecords(ctx.deps.db, ctx.member, input)),

  /** One record's page: its versions, what it conflicts with, its sources. */
  record: orgMemberProcedure
    .input(inProject.extend({ id: z.string().max(100) }))
    .output(recordPageSchema)
    .query(({ ctx, input }) => getRecordPage(ctx.deps.db, ctx.member, input)),

  /** An owner or admin settles a conflict by forgetting one version: the same forget as the MCP tool. */
  resolveConflict: orgAdminProcedure
    .input(resolveConflictInputSchema)
    .output(z.object(forgetOutputShape))
    .mutation(({ ctx, input }) => resolveConflict(ctx.deps.db, ctx.member, input)),

  versions: orgMemberProcedure
    .input(inProject.extend({ workspace: z.string().max(100), factKey: z.string().max(200) }))
    .output(z.array(recordViewSchema))
    .query(({ ctx, input }) => factKeyVersions(ctx.deps.db, ctx.member, input)),

  /** A soft delete, audited: the same rule as the MCP tool. */
  forget: orgMemberProcedure
    .input(inProject.extend({ id: z.uuid(), reason: z.string().max(500).optional() }))
    .output(z.object(forgetOutputShape))
    .mutation(({ ctx, input }) => forgetWorkspaceRecord(ctx.deps.db, ctx.member, input)),

  /** Erasure, for owners and admins: the record and what refers to it are gone for good; audited. */
  purge: orgMemberProcedure
    .input(purgeRecordInputSchema)
    .output(purgeRecordOutputSchema)
    .mutation(({ ctx, input }) => purgeRecord(ctx.deps.db, ctx.member, input)),
});
