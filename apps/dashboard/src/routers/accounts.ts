import { accountSummarySchema, createOrganization, leaveAccount, listMyAccounts, organizationNameSchema } from '@mmw/core';
import { z } from 'zod';
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

  leave: orgMemberProcedure
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx }) => {
      await leaveAccount(ctx.deps.db, ctx.member);
      return { ok: true as const };
    }),
});
