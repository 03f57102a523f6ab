import { deleteUploadedSession, listProjectSessions } from '@mmw/core';
import { z } from 'zod';
import { orgMemberProcedure, router } from '../trpc/trpc.ts';

const uploadedSessionSchema = z.object({
  id: z.string(),
  tool: z.string(),
  projectPath: z.string().nullable(),
  uploaderEmail: z.string(),
  uploaderUserId: z.string(),
  messageCount: z.number(),
  firstMessageAt: z.string().nullable(),
  lastMessageAt: z.string().nullable(),
});

/** Session history uploaded by mmw-agent: a member sees their own, owners and admins every one. */
export const sessionsRouter = router({
  list: orgMemberProcedure
    .input(z.object({ projectId: z.uuid() }))
    .output(z.array(uploadedSessionSchema))
    .query(({ ctx, input }) => listProjectSessions(ctx.deps.db, ctx.member, input.projectId)),

  /** Deletes a session and its messages: its uploader, or an owner or admin. Audited. */
  delete: orgMemberProcedure
    .input(z.object({ sessionId: z.uuid() }))
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await deleteUploadedSession(ctx.deps.db, ctx.member, input.sessionId);
      return { deleted: true as const };
    }),
});
