import { and, eq, sql } from 'drizzle-orm';
import { apiKeys, oauthTokens, withOAuthHash, type Database } from '@mmw/db';
import { AppError } from '../errors.ts';
import { sessionOfKeyHash } from '../keys/authenticate-key.ts';
import type { MemorySession } from '../memory/memory-session.ts';
import { hashOpaqueToken, isOpaqueToken } from './opaque-token.ts';
import { sameResource } from './settings.ts';

const invalidToken = () => new AppError('unauthorized', 'invalid, expired or revoked access token');

/**
 * The session of an OAuth access token, as a key gives one (that person, that project, their
 * visibility and call limits), with the scopes granted. Unknown, expired or revoked tokens, and
 * tokens issued for another resource than this MCP endpoint (RFC 8707 audience), are 'unauthorized'.
 */
export async function authenticateAccessToken(
  database: Database,
  presented: string,
  options: { resource: string; countCallWith?: string },
): Promise<MemorySession> {
  if (!isOpaqueToken(presented, 'access')) throw invalidToken();
  const hash = hashOpaqueToken(presented);
  const grant = await withOAuthHash(database.db, hash, async (tx) => {
    const [token] = await tx.select().from(oauthTokens).where(and(eq(oauthTokens.tokenHash, hash), eq(oauthTokens.kind, 'access'))).limit(1);
    if (!token || token.revokedAt !== null || token.expiresAt.getTime() <= Date.now()) return undefined;
    await tx.execute(sql`select set_config('mmw.account_id', ${token.accountId}, true)`);
    const [key] = await tx
      .select({ keyHash: apiKeys.keyHash, scopes: apiKeys.oauthScopes, resource: apiKeys.oauthResource })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, token.keyId), eq(apiKeys.accountId, token.accountId)))
      .limit(1);
    return key;
  });
  if (grant?.resource == null || !sameResource(options.resource, grant.resource)) throw invalidToken();
  const session = await sessionOfKeyHash(
    database.query,
    grant.keyHash,
    options.countCallWith === undefined ? {} : { countCallWith: options.countCallWith },
  ).catch((error: unknown) => {
    throw error instanceof AppError && error.code === 'unauthorized' ? invalidToken() : error;
  });
  return { ...session, scopes: grant.scopes ?? [] };
}
