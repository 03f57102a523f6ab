import { claudeAddCommand, issueKey, keyNameSchema, keySummarySchema, listKeys, revokeKey } from '@mmw/core';
import { z } from 'zod';
import { orgMemberProcedure, router } from '../trpc/trpc.ts';

export const keysRouter = router({
  list: orgMemberProcedure.output(z.array(keySummarySchema)).query(({ ctx }) => listKeys(ctx.deps.db, ctx.member)),

  /** The only time the whole key leaves the server, with the line that connects Claude Code. */
  issue: orgMemberProcedure
    .input(z.object({ projectId: z.uuid(), name: keyNameSchema, userId: z.uuid().optional() }))
    .output(z.object({ key: z.string(), claudeCommand: z.string(), mcpUrl: z.string(), summary: keySummarySchema }))
    .mutation(async ({ ctx, input }) => {
      const { key, summary } = await issueKey(ctx.deps.db, ctx.member, input);
      return { key, summary, mcpUrl: ctx.deps.mcpUrl, claudeCommand: claudeAddCommand(ctx.deps.mcpUrl, key) };
    }),

  revoke: orgMemberProcedure
    .input(z.object({ keyId: z.uuid() }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await revokeKey(ctx.deps.db, ctx.member, input.keyId);
      return { ok: true as const };
    }),
});
