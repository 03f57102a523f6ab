import { initTRPC, TRPCError } from '@trpc/server';
import { assertAdmin, databaseFailure, errorTable, isAppError, resolveMember } from '@mmw/core';
import { z } from 'zod';
import type { Context } from './context.ts';
import { describeInvalidInput } from './field-errors.ts';

/** The header every tRPC request from our client carries; a cross-site form or image cannot send it. */
export const CSRF_HEADER = 'x-mmw-csrf';

const t = initTRPC.context<Context>().create({
  isDev: false,
  errorFormatter({ shape, error }) {
    // A 5xx says nothing of its cause; 4xx messages are core's texts, meant for people.
    const hidden = error.code === 'INTERNAL_SERVER_ERROR';
    // An input check names the field and its limit in plain words, also per field for the form.
    const invalid = error.cause instanceof z.ZodError ? describeInvalidInput(error.cause) : undefined;
    return {
      ...shape,
      message: hidden ? 'internal error' : (invalid?.message ?? shape.message),
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        ...(invalid === undefined ? {} : { fields: invalid.fields }),
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/** Core's AppError codes become tRPC codes here, through core's one table, and nowhere else. */
const mapErrors = t.middleware(async ({ next, ctx, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = databaseFailure(result.error.cause) ?? result.error.cause;
    if (isAppError(cause)) {
      if (cause.retryAfterSeconds !== undefined)
        void ctx.res.header('retry-after', String(cause.retryAfterSeconds));
      throw new TRPCError({ code: errorTable[cause.code].trpc, message: cause.message, cause });
    }
    if (result.error.code === 'INTERNAL_SERVER_ERROR') {
      ctx.log.error({ path, error: cause?.name ?? result.error.name }, 'procedure failed');
    }
  }
  return result;
});

/**
 * Mutations under a cookie must come from our own pages: the custom header (which forces a CORS
 * preflight that this server never grants) and an Origin equal to the dashboard's.
 */
const csrfGuard = t.middleware(async ({ ctx, type, next }) => {
  if (type === 'mutation') {
    const origin = ctx.req.headers.origin;
    if (ctx.req.headers[CSRF_HEADER] === undefined || origin !== ctx.origin) {
      throw new TRPCError({ code: 'FORBIDDEN', message: 'cross-site request refused' });
    }
  }
  return next();
});

export const publicProcedure = t.procedure.use(mapErrors).use(csrfGuard);

/** Any session, a pending second factor included: signing out. */
export const anySessionProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (ctx.session === undefined) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'sign in first' });
  return next({ ctx: { session: ctx.session, user: ctx.session.user } });
});

/** A session whose password was given and whose second factor is awaited: the code step only. */
export const pendingSecondFactorProcedure = anySessionProcedure.use(async ({ ctx, next }) => {
  if (!ctx.session.secondFactorPending) throw new TRPCError({ code: 'CONFLICT', message: 'already signed in' });
  return next();
});

/** A full sign-in: a session waiting for its second factor is not one. */
export const authedProcedure = anySessionProcedure.use(async ({ ctx, next }) => {
  if (ctx.session.secondFactorPending) {
    throw new TRPCError({ code: 'UNAUTHORIZED', message: 'enter the code from your authenticator app first' });
  }
  return next();
});

/** The caller is decided once: an active member of the account the input names, or NOT_FOUND. */
export const orgMemberProcedure = authedProcedure
  .input(z.object({ accountId: z.uuid() }))
  .use(async ({ ctx, input, next }) => {
    const member = await resolveMember(ctx.deps.db, ctx.user, input.accountId);
    return next({ ctx: { member } });
  });

export const orgAdminProcedure = orgMemberProcedure.use(async ({ ctx, next }) => {
  assertAdmin(ctx.member);
  return next();
});
