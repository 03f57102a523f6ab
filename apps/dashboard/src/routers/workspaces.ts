import {
  factKeyVersions,
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
import { orgMemberProcedure, router } from '../trpc/trpc.ts';

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
