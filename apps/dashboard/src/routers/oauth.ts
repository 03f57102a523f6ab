import { TRPCError } from '@trpc/server';
import {
  approveAuthorization,
  authorizationParamsSchema,
  checkAuthorization,
  connectedClientSchema,
  denyAuthorization,
  isOAuthError,
  listConnectedClients,
  revokeConnectedClient,
  type AuthorizationParams,
} from '@mmw/core';
import { z } from 'zod';
import type { Context } from '../trpc/context.ts';
import { authedProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';

const redirect = z.object({ redirectTo: z.string() });

/** The authorization request again, checked as if new: the page's copy of it is never trusted. */
async function checked(ctx: Context, params: AuthorizationParams) {
  try {
    return await checkAuthorization(ctx.deps.db, ctx.deps.oauth, ctx.origin, params);
  } catch (error) {
    if (isOAuthError(error)) throw new TRPCError({ code: 'BAD_REQUEST', message: `${error.error}: ${error.message}` });
    throw error;
  }
}

async function request(ctx: Context, params: AuthorizationParams) {
  const result = await checked(ctx, params);
  if (!result.ok) throw new TRPCError({ code: 'BAD_REQUEST', message: 'the authorization request is invalid' });
  return result.request;
}

export const oauthRouter = router({
  /** What the consent page shows; or, for a request the client got wrong, where to send the browser back. */
  describe: authedProcedure
    .input(z.object({ params: authorizationParamsSchema }))
    .output(
      z.union([
        z.object({
          ok: z.literal(true),
          clientName: z.string(),
          clientId: z.string(),
          redirectHost: z.string(),
          scopes: z.array(z.string()),
          resource: z.string(),
        }),
        z.object({ ok: z.literal(false), redirectTo: z.string() }),
      ]),
    )
    .query(async ({ ctx, input }) => {
      const result = await checked(ctx, input.params);
      if (!result.ok) return result;
      const { client, redirectUri, scopes, resource } = result.request;
      return {
        ok: true as const,
        clientName: client.clientName ?? client.clientId,
        clientId: client.clientId,
        redirectHost: new URL(redirectUri).host,
        scopes,
        resource,
      };
    }),

  approve: orgMemberProcedure
    .input(z.object({ projectId: z.uuid(), params: authorizationParamsSchema }))
    .output(redirect)
    .mutation(async ({ ctx, input }) => ({
      redirectTo: await approveAuthorization(
        ctx.deps.db,
        ctx.deps.oauth,
        ctx.origin,
        ctx.member,
        await request(ctx, input.params),
        input.projectId,
      ),
    })),

  deny: authedProcedure
    .input(z.object({ params: authorizationParamsSchema }))
    .output(redirect)
    .mutation(async ({ ctx, input }) => ({ redirectTo: denyAuthorization(await request(ctx, input.params), ctx.origin) })),

  /** Connected clients, beside the keys: admins see all of the account's, members their own. */
  clients: orgMemberProcedure
    .output(z.array(connectedClientSchema))
    .query(({ ctx }) => listConnectedClients(ctx.deps.db, ctx.member)),

  revokeClient: orgMemberProcedure
    .input(z.object({ grantId: z.uuid() }))
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await revokeConnectedClient(ctx.deps.db, ctx.member, input.grantId);
      return { ok: true as const };
    }),
});
