import {
  acceptKeyRequest,
  claudeAddCommand,
  closeKeyRequest,
  issueKey,
  keyNameSchema,
  keyOptionsSchema,
  keyRequestSchema,
  keySummarySchema,
  listKeyRequests,
  listKeys,
  requestKey,
  revokeKey,
} from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';

const ok = z.object({ ok: z.literal(true) });
const issued = z.object({ key: z.string(), claudeCommand: z.string(), mcpUrl: z.string(), summary: keySummarySchema });

export const keysRouter = router({
  list: orgMemberProcedure.output(z.array(keySummarySchema)).query(({ ctx }) => listKeys(ctx.deps.db, ctx.member)),

  /** The only time the whole key leaves the server, with the line that connects Claude Code. A key acts for its issuer. */
  issue: orgMemberProcedure
    .input(z.object({ projectId: z.uuid(), name: keyNameSchema, ...keyOptionsSchema.shape }))
    .output(issued)
    .mutation(async ({ ctx, input }) => {
      const { key, summary } = await issueKey(ctx.deps.db, ctx.member, input);
      return { key, summary, mcpUrl: ctx.deps.mcpUrl, claudeCommand: claudeAddCommand(ctx.deps.mcpUrl, key) };
    }),

  revoke: orgMemberProcedure
    .input(z.object({ keyId: z.uuid() }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await revokeKey(ctx.deps.db, ctx.member, input.keyId);
      return { ok: true as const };
    }),

  requests: orgMemberProcedure.output(z.array(keyRequestSchema)).query(({ ctx }) => listKeyRequests(ctx.deps.db, ctx.member)),

  /** An admin sets up a key for a colleague: the colleague accepts it and it is theirs. */
  request: orgAdminProcedure
    .input(z.object({ projectId: z.uuid(), name: keyNameSchema, userId: z.uuid(), ...keyOptionsSchema.shape }))
    .output(keyRequestSchema)
    .mutation(({ ctx, input }) => requestKey(ctx.deps.db, ctx.member, input)),

  acceptRequest: orgMemberProcedure
    .input(z.object({ requestId: z.uuid() }))
    .output(issued)
    .mutation(async ({ ctx, input }) => {
      const { key, summary } = await acceptKeyRequest(ctx.deps.db, ctx.member, input.requestId);
      return { key, summary, mcpUrl: ctx.deps.mcpUrl, claudeCommand: claudeAddCommand(ctx.deps.mcpUrl, key) };
    }),

  closeRequest: orgMemberProcedure
    .input(z.object({ requestId: z.uuid() }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await closeKeyRequest(ctx.deps.db, ctx.member, input.requestId);
      return { ok: true as const };
    }),
});
