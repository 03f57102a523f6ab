import { handOver, handoverSchema, listHandovers } from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, router } from '../trpc/trpc.ts';

export const handoverRouter = router({
  list: orgAdminProcedure.output(z.array(handoverSchema)).query(({ ctx }) => listHandovers(ctx.deps.db, ctx.member)),

  /** A former member's knowledge to an active member. */
  create: orgAdminProcedure
    .input(z.object({ fromUserId: z.uuid(), toUserId: z.uuid() }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await handOver(ctx.deps.db, ctx.member, input);
      return { ok: true as const };
    }),
});
