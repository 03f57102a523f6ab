import {
  changePassword,
  codeSchema,
  completeSecondFactor,
  invalidateSession,
  requestPasswordResetInputSchema,
  resetPassword,
  resetPasswordInputSchema,
  sessionUserSchema,
  signIn,
  signInInputSchema,
  signOutEverywhere,
  signUp,
  signUpInputSchema,
  verifyEmail,
} from '@mmw/core';
import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../trpc/session-cookie.ts';
import { sendPasswordResetMail } from '../password-reset-mail.ts';
import { sendVerificationMail } from '../verification-mail.ts';
import { anySessionProcedure, authedProcedure, pendingSecondFactorProcedure, publicProcedure, router } from '../trpc/trpc.ts';

const ok = z.object({ ok: z.literal(true) });

export const authRouter = router({
  /** Who is signed in, and whether the second factor is still awaited; null when nobody is. */
  me: publicProcedure
    .input(z.void())
    .output(sessionUserSchema.extend({ twoFactorEnabled: z.boolean(), secondFactorPending: z.boolean() }).nullable())
    .query(({ ctx }) => (ctx.session ? { ...ctx.session.user, secondFactorPending: ctx.session.secondFactorPending } : null)),

  signUp: publicProcedure
    .input(signUpInputSchema)
    .output(sessionUserSchema)
    .mutation(async ({ ctx, input }) => {
      const { user, session } = await signUp(ctx.deps.db, input, {
        subscription: ctx.deps.billing?.newAccountSubscription(),
        address: ctx.req.ip,
        ...(ctx.deps.signUpsPerAddress === undefined ? {} : { perAddress: ctx.deps.signUpsPerAddress }),
      });
      setSessionCookie(ctx.res, ctx.deps.cookies, session.token, session.expiresAt);
      // The account works at once; the address is proven later, by the link (needed to accept an invitation).
      await sendVerificationMail(ctx.deps, ctx.origin, user.id).catch((error: unknown) =>
        ctx.log.error({ error: error instanceof Error ? error.name : 'unknown' }, 'the verification mail could not be sent'),
      );
      return user;
    }),

  /** With two-factor sign-in on, the cookie holds a pending session until verifySecondFactor. */
  signIn: publicProcedure
    .input(signInInputSchema)
    .output(sessionUserSchema.extend({ secondFactorRequired: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      const { user, session, secondFactorRequired } = await signIn(ctx.deps.db, input, { address: ctx.req.ip });
      setSessionCookie(ctx.res, ctx.deps.cookies, session.token, session.expiresAt);
      return { ...user, secondFactorRequired };
    }),

  verifySecondFactor: pendingSecondFactorProcedure
    .input(z.object({ code: codeSchema }))
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      const session = await completeSecondFactor(ctx.deps.db, ctx.session, input.code, ctx.deps.secrets);
      setSessionCookie(ctx.res, ctx.deps.cookies, session.token, session.expiresAt);
      return { ok: true as const };
    }),

  /** Follows the link of a verification mail; works signed in or not: the token is the proof. */
  verifyEmail: publicProcedure
    .input(z.object({ token: z.string().max(100) }))
    .output(z.object({ email: z.string() }))
    .mutation(({ ctx, input }) => verifyEmail(ctx.deps.db, input.token)),

  resendVerification: authedProcedure
    .input(z.object({}))
    .output(ok)
    .mutation(async ({ ctx }) => {
      await sendVerificationMail(ctx.deps, ctx.origin, ctx.user.id);
      return { ok: true as const };
    }),

  /** "Forgot password?": the same answer whether or not an account has the address. */
  requestPasswordReset: publicProcedure
    .input(requestPasswordResetInputSchema)
    .output(ok)
    .mutation(async ({ ctx, input }) => {
      await sendPasswordResetMail(ctx.deps, ctx.log, ctx.origin, { email: input.email, address: ctx.req.ip });
      return { ok: true as const };
    }),

  /** Follows a reset link: a new password, every session ended; the person then signs in. */
  resetPassword: publicProcedure
    .input(resetPasswordInputSchema)
    .output(z.object({ email: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const result = await resetPassword(ctx.deps.db, input);
      clearSessionCookie(ctx.res, ctx.deps.cookies);
      return result;
    }),

  // Mutations take an (empty) object: a body-less POST is not valid JSON to the tRPC handler.
  signOut: anySessionProcedure
    .input(z.object({}))
    .output(ok)
    .mutation(async ({ ctx }) => {
      await invalidateSession(ctx.deps.db, ctx.session.id);
      clearSessionCookie(ctx.res, ctx.deps.cookies);
      return { ok: true as const };
    }),

  signOutEverywhere: authedProcedure
    .input(z.object({}))
    .output(z.object({ endedSessions: z.number() }))
    .mutation(async ({ ctx }) => {
      const result = await signOutEverywhere(ctx.deps.db, ctx.user.id);
      clearSessionCookie(ctx.res, ctx.deps.cookies);
      return result;
    }),

  changePassword: authedProcedure
    .input(z.object({ currentPassword: z.string().max(1024), newPassword: z.string().max(1024) }))
    .output(z.object({ endedSessions: z.number() }))
    .mutation(({ ctx, input }) =>
      changePassword(ctx.deps.db, { userId: ctx.user.id, sessionId: ctx.session.id, ...input }),
    ),
});
