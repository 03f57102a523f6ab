import {
  accountSummarySchema,
  createOrganization,
  deleteAccount,
  deleteAccountInputSchema,
  exportAccountRecords,
  exportRecordsInputSchema,
  exportRecordsOutputSchema,
  firstMemoryReceived,
  firstMemorySchema,
  leaveAccount,
  listMyAccounts,
  organizationNameSchema,
  renameOrganization,
  setTwoFactorRequirement,
} from '@mmw/core';
import { z } from 'zod';
import { clearSessionCookie } from '../trpc/session-cookie.ts';
import { authedProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';

export const accountsRouter = router({
  /** The organization switcher: the personal account and every organization the user belongs to. */
  list: authedProcedure
    .input(z.void())
    .output(z.array(accountSummarySchema))
    .query(({ ctx }) => listMyAccounts(ctx.deps.db, ctx.user.id)),

  createOrganization: authedProcedure
    .input(z.object({ name: organizationNameSchema }))
    .output(accountSummarySchema)
    .mutation(({ ctx, input }) =>
      createOrganization(ctx.deps.db, ctx.user.id, input.name, { subscription: ctx.deps.billing?.newAccountSubscription() }),
    ),

  /** The caller's own membership and role in one account. */
  get: orgMemberProcedure
    .output(z.object({ accountId: z.string(), role: z.string(), kind: z.string() }))
    .query(({ ctx }) => ({ accountId: ctx.member.accountId, role: ctx.member.role, kind: ctx.member.accountKind })),

  /** The owner renames the organization. */
  rename: orgMemberProcedure
    .input(z.object({ name: organizationNameSchema }))
    .output(accountSummarySchema)
    .mutation(({ ctx, input }) => renameOrganization(ctx.deps.db, ctx.member, input)),

  /** The first-run panel: the MCP endpoint to connect to, and whether the first memory has arrived. */
  connection: orgMemberProcedure
    .output(firstMemorySchema.extend({ mcpUrl: z.string() }))
    .query(async ({ ctx }) => ({ mcpUrl: ctx.deps.mcpUrl, ...(await firstMemoryReceived(ctx.deps.db, ctx.member)) })),

  leave: orgMemberProcedure
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      await leaveAccount(ctx.deps.db, ctx.member);
      return { ok: true as const };
    }),

  /** A page of the records the owner may read, as JSON Lines: offered before the account is deleted. */
  exportRecords: orgMemberProcedure
    .input(exportRecordsInputSchema)
    .output(exportRecordsOutputSchema)
    .query(({ ctx, input }) => exportAccountRecords(ctx.deps.db, ctx.member, input)),

  /** The owner deletes the account for good (a personal one closes their sign-in too). */
  delete: orgMemberProcedure
    .input(deleteAccountInputSchema)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      const result = await deleteAccount(ctx.deps.db, ctx.member, input);
      if (ctx.member.accountKind === 'personal') clearSessionCookie(ctx.res, ctx.deps.cookies);
      return result;
    }),

  /** The owner's switch: every member must have two-factor sign-in to use the organization. */
  setTwoFactorRequirement: orgMemberProcedure
    .input(z.object({ required: z.boolean() }))
    .output(z.object({ required: z.boolean() }))
    .mutation(({ ctx, input }) =>
      setTwoFactorRequirement(ctx.deps.db, ctx.member, { required: input.required, ownerHasTwoFactor: ctx.user.twoFactorEnabled }),
    ),
});
