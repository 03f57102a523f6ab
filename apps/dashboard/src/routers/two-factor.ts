import {
  codeSchema,
  confirmTwoFactorEnrolment,
  disableTwoFactor,
  startTwoFactorEnrolment,
  twoFactorEnrolmentSchema,
  twoFactorStatus,
  twoFactorStatusSchema,
} from '@mmw/core';
import { z } from 'zod';
import { authedProcedure, router } from '../trpc/trpc.ts';

/** The signed-in user's own two-factor sign-in: no account ids, nobody else's. */
export const twoFactorRouter = router({
  status: authedProcedure
    .input(z.void())
    .output(twoFactorStatusSchema)
    .query(({ ctx }) => twoFactorStatus(ctx.deps.db, ctx.user.id)),

  /** The secret and its otpauth URI, shown this once. */
  startEnrolment: authedProcedure
    .input(z.object({}))
    .output(twoFactorEnrolmentSchema)
    .mutation(({ ctx }) => startTwoFactorEnrolment(ctx.deps.db, ctx.user, ctx.deps.secrets)),

  /** The recovery codes, shown this once. */
  confirmEnrolment: authedProcedure
    .input(z.object({ code: codeSchema }))
    .output(z.object({ recoveryCodes: z.array(z.string()) }))
    .mutation(({ ctx, input }) => confirmTwoFactorEnrolment(ctx.deps.db, ctx.user.id, input.code, ctx.deps.secrets)),

  disable: authedProcedure
    .input(z.object({ code: codeSchema }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await disableTwoFactor(ctx.deps.db, ctx.user.id, input.code, ctx.deps.secrets);
      return { ok: true as const };
    }),
});
