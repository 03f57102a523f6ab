import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { apiKeys, oauthTokens, projects, users, withOAuthHash, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { isAdmin, type Member } from '../orgs/member.ts';
import { authenticateClient, resolveClient, type TokenRequest } from './clients.ts';
import { OAuthError } from './oauth-error.ts';
import { hashOpaqueToken } from './opaque-token.ts';
import type { OAuthSettings } from './settings.ts';

export const connectedClientSchema = z.object({
  id: z.string(),
  clientName: z.string(),
  clientId: z.string(),
  projectName: z.string(),
  userEmail: z.string(),
  scopes: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ConnectedClient = z.infer<typeof connectedClientSchema>;

/** Ends a grant (its key row) and so every token of it, audited with why; false when it had ended. */
export async function revokeGrantInTx(
  tx: Db,
  grant: { accountId: string; keyId: string; reason: string; actorUserId?: string },
): Promise<boolean> {
  const [row] = await tx
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.id, grant.keyId), eq(apiKeys.accountId, grant.accountId), isNotNull(apiKeys.oauthClientId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id, clientId: apiKeys.oauthClientId });
  if (!row) return false;
  await tx
    .update(oauthTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(oauthTokens.keyId, row.id), eq(oauthTokens.accountId, grant.accountId), isNull(oauthTokens.revokedAt)));
  await recordAudit(tx, {
    accountId: grant.accountId,
    action: 'oauth.revoked',
    actorUserId: grant.actorUserId ?? null,
    targetType: 'api_key',
    targetId: row.id,
    data: { clientId: row.clientId, reason: grant.reason },
  });
  return true;
}

/** The account's connected clients, beside its keys: admins see all, members their own. */
export async function listConnectedClients(db: Db, member: Member): Promise<ConnectedClient[]> {
  const owner = alias(users, 'grant_user');
  const rows = await withTenant(db, member.accountId, (tx) =>
    tx
      .select({
        id: apiKeys.id,
        clientName: apiKeys.name,
        clientId: apiKeys.oauthClientId,
        projectName: projects.name,
        userEmail: owner.email,
        scopes: apiKeys.oauthScopes,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .innerJoin(projects, eq(projects.id, apiKeys.projectId))
      .innerJoin(owner, eq(owner.id, apiKeys.userId))
      .where(
        and(
          eq(apiKeys.accountId, member.accountId),
          isNotNull(apiKeys.oauthClientId),
          isAdmin(member) ? undefined : eq(apiKeys.userId, member.userId),
        ),
      )
      .orderBy(desc(apiKeys.createdAt))
      .limit(500),
  );
  return rows.map((row) => ({
    ...row,
    clientId: row.clientId ?? '',
    scopes: row.scopes ?? [],
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

/** Admins disconnect any client of the account; members their own. */
export async function revokeConnectedClient(db: Db, member: Member, grantId: string): Promise<void> {
  await withTenant(db, member.accountId, async (tx) => {
    const [row] = await tx
      .select({ id: apiKeys.id })
      .from(apiKeys)
      .where(
        and(
          eq(apiKeys.id, grantId),
          eq(apiKeys.accountId, member.accountId),
          isNotNull(apiKeys.oauthClientId),
          isAdmin(member) ? undefined : eq(apiKeys.userId, member.userId),
        ),
      );
    const revoked = row !== undefined && (await revokeGrantInTx(tx, { accountId: member.accountId, keyId: row.id, reason: 'revoked_in_dashboard', actorUserId: member.userId }));
    if (!revoked) throw new AppError('not_found', 'connected client not found');
  });
}

/**
 * RFC 7009 revocation: a client ends its own grant with any of its tokens. An unknown token, or
 * another client's, is answered as a success that changes nothing, as the RFC says.
 */
export async function revocationEndpoint(db: Db, settings: OAuthSettings, request: TokenRequest): Promise<void> {
  const clientId = request.basic?.clientId ?? request.params.client_id;
  if (clientId === undefined) throw new OAuthError('invalid_client', 'client_id is missing');
  const client = await resolveClient(db, clientId, settings.clientDocuments, { fetch: false }).catch((error: unknown) => {
    throw error instanceof OAuthError ? new OAuthError('invalid_client', error.message) : error;
  });
  authenticateClient(client, request.basic?.secret ?? request.params.client_secret);
  const token = request.params.token;
  if (token === undefined) throw new OAuthError('invalid_request', 'token is missing');
  if (token.length > 200) return;
  const hash = hashOpaqueToken(token);
  await withOAuthHash(db, hash, async (tx) => {
    const [found] = await tx.select().from(oauthTokens).where(eq(oauthTokens.tokenHash, hash)).limit(1);
    if (!found) return;
    await tx.execute(setTenantStatement(found.accountId));
    const [key] = await tx
      .select({ clientId: apiKeys.oauthClientId })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, found.keyId), eq(apiKeys.accountId, found.accountId)));
    if (key?.clientId !== client.clientId) return;
    await revokeGrantInTx(tx, { accountId: found.accountId, keyId: found.keyId, reason: 'revoked_by_client' });
  });
}

function setTenantStatement(accountId: string) {
  return sql`select set_config('mmw.account_id', ${accountId}, true)`;
}
