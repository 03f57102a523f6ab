import {
  changePassword,
  invalidateSession,
  sessionUserSchema,
  signIn,
  signInInputSchema,
  signOutEverywhere,
  signUp,
  signUpInputSchema,
} from '@mmw/core';
import { z } from 'zod';
import { clearSessionCookie, setSessionCookie } from '../trpc/session-cookie.ts';
import { authedProcedure, publicProcedure, router } from '../trpc/trpc.ts';

const ok = z.object({ ok: z.literal(true) });

export const authRouter = router({
  /** Who is signed in; null when nobody is. */
  me: publicProcedure.input(z.void()).output(sessionUserSchema.nullable()).query(({ ctx }) => ctx.session?.user ?? null),

  signUp: publicProcedure
    .input(signUpInputSchema)
    .output(sessionUserSchema)
    .mutation(async ({ ctx, input }) => {
      const { user, session } = await signUp(ctx.deps.db, input, { subscription: ctx.deps.billing?.newAccountSubscription() });
      setSessionCookie(ctx.res, ctx.deps.cookies, session.token, session.expiresAt);
      return user;
    }),

  signIn: publicProcedure
    .input(signInInputSchema)
    .output(sessionUserSchema)
    .mutation(async ({ ctx, input }) => {
      const { user, session } = await signIn(ctx.deps.db, input, { address: ctx.req.ip });
      setSessionCookie(ctx.res, ctx.deps.cookies, session.token, session.expiresAt);
      return user;
    }),

  // Mutations take an (empty) object: a body-less POST is not valid JSON to the tRPC handler.
  signOut: authedProcedure
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
