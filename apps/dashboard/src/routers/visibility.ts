import { getProjectVisibility, projectVisibilitySchema, setVisibility, setVisibilityInputSchema } from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';

export const visibilityRouter = router({
  get: orgMemberProcedure
    .input(z.object({ projectId: z.uuid() }))
    .output(projectVisibilitySchema)
    .query(({ ctx, input }) => getProjectVisibility(ctx.deps.db, ctx.member, input.projectId)),

  set: orgAdminProcedure
    .input(setVisibilityInputSchema)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await setVisibility(ctx.deps.db, ctx.member, input);
      return { ok: true as const };
    }),
});
