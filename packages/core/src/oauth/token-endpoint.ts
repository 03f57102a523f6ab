import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, oauthCodes, oauthTokens, withOAuthHash, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { hashApiKey } from '../keys/api-key.ts';
import { authenticateClient, resolveClient, type OAuthClient, type TokenRequest } from './clients.ts';
import { OAuthError } from './oauth-error.ts';
import { hashOpaqueToken, isOpaqueToken, newOpaqueToken } from './opaque-token.ts';
import { sameResource, type OAuthSettings } from './settings.ts';
import { revokeGrantInTx } from './grants.ts';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/** The token request's fields (form body), and the client's credentials from an Authorization: Basic header. */
const VERIFIER = /^[\w.~-]{43,128}$/;
const badGrant = (why: string) => new OAuthError('invalid_grant', why);

async function requestingClient(db: Db, settings: OAuthSettings, request: TokenRequest): Promise<OAuthClient> {
  const clientId = request.basic?.clientId ?? request.params.client_id;
  if (clientId === undefined) throw new OAuthError('invalid_client', 'client_id is missing');
  if (request.basic !== undefined && request.params.client_id !== undefined && request.params.client_id !== clientId) {
    throw new OAuthError('invalid_client', 'two different client ids');
  }
  const client = await resolveClient(db, clientId, settings.clientDocuments, { fetch: false }).catch((error: unknown) => {
    throw error instanceof OAuthError ? new OAuthError('invalid_client', error.message) : error;
  });
  authenticateClient(client, request.basic?.secret ?? request.params.client_secret);
  return client;
}

/** A new access and refresh token for the grant (a key row), in the transaction that made or rotated it. */
async function issueTokens(tx: Db, settings: OAuthSettings, grant: { accountId: string; keyId: string; scopes: string[] }): Promise<TokenResponse> {
  const access = newOpaqueToken('access');
  const refresh = newOpaqueToken('refresh');
  const now = Date.now();
  await tx.insert(oauthTokens).values([
    { tokenHash: access.hash, accountId: grant.accountId, keyId: grant.keyId, kind: 'access', expiresAt: new Date(now + settings.accessTokenSeconds * 1000) },
    { tokenHash: refresh.hash, accountId: grant.accountId, keyId: grant.keyId, kind: 'refresh', expiresAt: new Date(now + settings.refreshTokenSeconds * 1000) },
  ]);
  return {
    access_token: access.token,
    token_type: 'Bearer',
    expires_in: settings.accessTokenSeconds,
    refresh_token: refresh.token,
    scope: grant.scopes.join(' '),
  };
}

const setTenant = (tx: Db, accountId: string) => tx.execute(sql`select set_config('mmw.account_id', ${accountId}, true)`);

/**
 * The authorization_code grant: the code is used once (a second use revokes what the first
 * granted), and must match the client, the redirect URI, the PKCE verifier and the resource. The
 * grant is a key row for the person and project of the consent, audited.
 */
async function exchangeCode(db: Db, settings: OAuthSettings, client: OAuthClient, params: TokenRequest['params']): Promise<TokenResponse> {
  const code = params.code;
  if (code === undefined || !isOpaqueToken(code, 'code')) throw badGrant('the code is invalid, expired or used');
  const verifier = params.code_verifier;
  if (verifier === undefined || !VERIFIER.test(verifier)) throw badGrant('code_verifier is missing or malformed');
  const hash = hashOpaqueToken(code);
  return withOAuthHash(db, hash, async (tx) => {
    const [found] = await tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, hash)).limit(1);
    if (!found) throw badGrant('the code is invalid, expired or used');
    await setTenant(tx, found.accountId);
    const [claimed] = await tx
      .update(oauthCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(oauthCodes.codeHash, hash), eq(oauthCodes.accountId, found.accountId), isNull(oauthCodes.usedAt)))
      .returning({ codeHash: oauthCodes.codeHash });
    if (!claimed) {
      // A replayed code: what its first use granted is revoked (RFC 6749 section 4.1.2).
      if (found.keyId !== null) await revokeGrantInTx(tx, { accountId: found.accountId, keyId: found.keyId, reason: 'code_replayed' });
      return { replayed: true as const };
    }
    if (found.expiresAt.getTime() <= Date.now()) return { refused: 'the code is invalid, expired or used' };
    if (found.clientId !== client.clientId) return { refused: 'the code was issued to another client' };
    if (params.redirect_uri !== found.redirectUri) return { refused: 'redirect_uri does not match the authorization request' };
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (challenge !== found.codeChallenge) return { refused: 'code_verifier does not match the code challenge' };
    if (params.resource !== undefined && !sameResource(params.resource, found.resource)) {
      return { wrongResource: true as const };
    }
    const [key] = await tx
      .insert(apiKeys)
      .values({
        accountId: found.accountId,
        projectId: found.projectId,
        userId: found.userId,
        name: client.clientName ?? client.clientId,
        keyHash: hashApiKey(`mmw-grant-${randomBytes(32).toString('base64url')}`),
        prefix: 'oauth',
        createdBy: found.userId,
        oauthClientId: client.clientId,
        oauthScopes: found.scopes,
        oauthResource: found.resource,
      })
      .returning({ id: apiKeys.id });
    if (!key) throw new OAuthError('invalid_grant', 'the grant could not be made', 500);
    await tx.update(oauthCodes).set({ keyId: key.id }).where(and(eq(oauthCodes.codeHash, hash), eq(oauthCodes.accountId, found.accountId)));
    await recordAudit(tx, {
      accountId: found.accountId,
      action: 'oauth.granted',
      actorUserId: found.userId,
      targetType: 'api_key',
      targetId: key.id,
      data: { clientId: client.clientId, clientName: client.clientName, projectId: found.projectId, scopes: found.scopes },
    });
    return { tokens: await issueTokens(tx, settings, { accountId: found.accountId, keyId: key.id, scopes: found.scopes }) };
  }).then((outcome) => {
    if ('tokens' in outcome && outcome.tokens !== undefined) return outcome.tokens;
    if ('wrongResource' in outcome) throw new OAuthError('invalid_target', 'the code was granted for another resource');
    if ('replayed' in outcome) throw badGrant('the code is invalid, expired or used');
    throw badGrant(outcome.refused);
  });
}

/**
 * The refresh_token grant: the refresh token is used once and replaced (rotation); a second use of
 * one revokes the whole grant, since only a thief or a lost race presents it again.
 */
async function refreshTokens(db: Db, settings: OAuthSettings, client: OAuthClient, params: TokenRequest['params']): Promise<TokenResponse> {
  const presented = params.refresh_token;
  if (presented === undefined || !isOpaqueToken(presented, 'refresh')) throw badGrant('the refresh token is invalid, expired or revoked');
  const hash = hashOpaqueToken(presented);
  const outcome = await withOAuthHash(db, hash, async (tx) => {
    const [token] = await tx.select().from(oauthTokens).where(and(eq(oauthTokens.tokenHash, hash), eq(oauthTokens.kind, 'refresh'))).limit(1);
    if (!token) return { refused: true as const };
    await setTenant(tx, token.accountId);
    const [key] = await tx
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, token.keyId), eq(apiKeys.accountId, token.accountId)))
      .limit(1);
    if (!key || key.revokedAt !== null || token.revokedAt !== null || token.expiresAt.getTime() <= Date.now()) return { refused: true as const };
    if (key.oauthClientId !== client.clientId) return { refused: true as const };
    const [claimed] = await tx
      .update(oauthTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(oauthTokens.tokenHash, hash), eq(oauthTokens.accountId, token.accountId), isNull(oauthTokens.usedAt)))
      .returning({ tokenHash: oauthTokens.tokenHash });
    if (!claimed) {
      await revokeGrantInTx(tx, { accountId: token.accountId, keyId: key.id, reason: 'refresh_token_reused' });
      return { refused: true as const };
    }
    if (params.resource !== undefined && !sameResource(params.resource, key.oauthResource ?? '')) return { wrongResource: true as const };
    const granted = key.oauthScopes ?? [];
    const asked = params.scope === undefined ? granted : params.scope.split(' ').filter((scope) => scope !== '');
    if (asked.some((scope) => !granted.includes(scope))) return { badScope: true as const };
    return { tokens: await issueTokens(tx, settings, { accountId: token.accountId, keyId: key.id, scopes: granted }) };
  });
  if ('tokens' in outcome && outcome.tokens !== undefined) return outcome.tokens;
  if ('wrongResource' in outcome) throw new OAuthError('invalid_target', 'the grant is for another resource');
  if ('badScope' in outcome) throw new OAuthError('invalid_scope', 'a refresh cannot widen the granted scopes');
  throw badGrant('the refresh token is invalid, expired or revoked');
}

/** The token endpoint (RFC 6749 section 3.2, OAuth 2.1): authorization_code with PKCE, and refresh_token. */
export async function tokenEndpoint(db: Db, settings: OAuthSettings, request: TokenRequest): Promise<TokenResponse> {
  const grantType = request.params.grant_type;
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  }
  const client = await requestingClient(db, settings, request);
  return grantType === 'authorization_code'
    ? exchangeCode(db, settings, client, request.params)
    : refreshTokens(db, settings, client, request.params);
}
