import { createProject, listProjects, projectNameSchema, projectSchema, renameProject, setProjectActive } from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';

export const projectsRouter = router({
  list: orgMemberProcedure.output(z.array(projectSchema)).query(({ ctx }) => listProjects(ctx.deps.db, ctx.member)),

  create: orgAdminProcedure
    .input(z.object({ name: projectNameSchema }))
    .output(projectSchema)
    .mutation(({ ctx, input }) => createProject(ctx.deps.db, ctx.member, input.name)),

  rename: orgAdminProcedure
    .input(z.object({ projectId: z.uuid(), name: projectNameSchema }))
    .output(projectSchema)
    .mutation(({ ctx, input }) => renameProject(ctx.deps.db, ctx.member, input.projectId, input.name)),

  setActive: orgAdminProcedure
    .input(z.object({ projectId: z.uuid(), active: z.boolean() }))
    .output(projectSchema)
    .mutation(({ ctx, input }) => setProjectActive(ctx.deps.db, ctx.member, input.projectId, input.active)),
});
