import {
  acceptInvitation,
  changeRole,
  createInvitation,
  emailSchema,
  invitationPreviewSchema,
  invitationSchema,
  listInvitations,
  listMembers,
  memberSummarySchema,
  previewInvitation,
  removeMember,
  resendInvitation,
  revokeInvitation,
  roleSchema,
} from '@mmw/core';
import { z } from 'zod';
import { authedProcedure, orgAdminProcedure, orgMemberProcedure, publicProcedure, router } from '../trpc/trpc.ts';

const ok = z.object({ ok: z.literal(true) });
const done = { ok: true as const };
const token = z.string().max(100);

export const membersRouter = router({
  list: orgMemberProcedure.output(z.array(memberSummarySchema)).query(({ ctx }) => listMembers(ctx.deps.db, ctx.member)),

  changeRole: orgAdminProcedure
    .input(z.object({ userId: z.uuid(), role: roleSchema }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await changeRole(ctx.deps.db, ctx.member, input);
      return done;
    }),

  remove: orgAdminProcedure
    .input(z.object({ userId: z.uuid(), receiverUserId: z.uuid().optional() }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await removeMember(ctx.deps.db, ctx.member, input);
      return done;
    }),
});

export const invitationsRouter = router({
  list: orgAdminProcedure.output(z.array(invitationSchema)).query(({ ctx }) => listInvitations(ctx.deps.db, ctx.member)),

  /** The link is shown to the admin and mailed to the invitee. */
  create: orgAdminProcedure
    .input(z.object({ email: emailSchema, role: roleSchema }))
    .output(z.object({ invitation: invitationSchema, link: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { invitation, token: secret } = await createInvitation(ctx.deps.db, ctx.member, input);
      const link = `${ctx.origin}/invite/${secret}`;
      const accountName = (await previewInvitation(ctx.deps.db, secret)).accountName;
      try {
        await ctx.deps.notifier.invitationCreated({ email: input.email, accountName, link });
      } catch (error) {
        // The admin still has the link on the page; the log never carries it.
        ctx.log.error({ error: error instanceof Error ? error.name : 'unknown' }, 'the invitation mail could not be sent');
      }
      return { invitation, link };
    }),

  /** A fresh link for an open invitation, shown to the admin and mailed again; the old link stops working. */
  resend: orgAdminProcedure
    .input(z.object({ invitationId: z.uuid() }))
    .output(z.object({ invitation: invitationSchema, link: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const { invitation, token: secret, accountName } = await resendInvitation(ctx.deps.db, ctx.member, input.invitationId);
      const link = `${ctx.origin}/invite/${secret}`;
      try {
        await ctx.deps.notifier.invitationCreated({ email: invitation.email, accountName, link });
      } catch (error) {
        ctx.log.error({ error: error instanceof Error ? error.name : 'unknown' }, 'the invitation mail could not be sent');
      }
      return { invitation, link };
    }),

  revoke: orgAdminProcedure
    .input(z.object({ invitationId: z.uuid() }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await revokeInvitation(ctx.deps.db, ctx.member, input.invitationId);
      return done;
    }),

  /** Public: the link's token is the capability; sign-in and sign-up pages fill the invited email from it. */
  preview: publicProcedure
    .input(z.object({ token }))
    .output(invitationPreviewSchema)
    .query(({ ctx, input }) => previewInvitation(ctx.deps.db, input.token)),

  accept: authedProcedure
    .input(z.object({ token }))
    .output(z.object({ accountId: z.string() }))
    .mutation(({ ctx, input }) => acceptInvitation(ctx.deps.db, ctx.user.id, input.token)),
});
