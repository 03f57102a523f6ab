import { randomBytes } from 'node:crypto';
import { OAuthClientMetadataSchema } from '@modelcontextprotocol/sdk/shared/auth.js';
import { eq } from 'drizzle-orm';
import { oauthClients, type Db } from '@mmw/db';
import { clientRegistrationBuckets, reserveAttempt } from '../auth/login-throttle.ts';
import { isAppError } from '../errors.ts';
import { hashesEqual } from '../keys/api-key.ts';
import { clientDocumentUrl, fetchClientDocument, type ClientDocumentPolicy } from './fetch-client-document.ts';
import { OAuthError } from './oauth-error.ts';
import { hashOpaqueToken, newOpaqueToken } from './opaque-token.ts';

/** A client as the authorization server uses it. */
/** A client's request to the token or revocation endpoint: its form parameters, and HTTP Basic credentials when sent. */
export interface TokenRequest {
  params: Record<string, string | undefined>;
  basic?: { clientId: string; secret: string } | undefined;
}

export interface OAuthClient {
  clientId: string;
  kind: 'registered' | 'metadata_document';
  clientName: string | null;
  redirectUris: string[];
  tokenEndpointAuthMethod: string;
  secretHash: string | null;
}

/** How long a fetched client document is used before it is fetched again. */
const DOCUMENT_CACHE_MS = 60 * 60 * 1000;
const MAX_REDIRECT_URIS = 10;
const MAX_URI_LENGTH = 2000;
const MAX_NAME_LENGTH = 200;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere; http only to this machine (a native or command-line client's local listener). */
function redirectUriAllowed(uri: string): boolean {
  if (uri.length > MAX_URI_LENGTH || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.hash !== '') return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

/** The metadata a client gives (registration body or document), checked; errors name the field. */
function checkedMetadata(body: unknown, error: 'invalid_client_metadata' | 'invalid_client') {
  const parsed = OAuthClientMetadataSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OAuthError(error, `client metadata is invalid: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  const metadata = parsed.data;
  if (metadata.redirect_uris.length === 0 || metadata.redirect_uris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError(error === 'invalid_client' ? error : 'invalid_redirect_uri', `a client needs 1 to ${MAX_REDIRECT_URIS} redirect_uris`);
  }
  for (const uri of metadata.redirect_uris) {
    if (!redirectUriAllowed(uri)) {
      throw new OAuthError(error === 'invalid_client' ? error : 'invalid_redirect_uri', 'redirect_uris must be https, or http to localhost');
    }
  }
  if (metadata.grant_types?.some((grant) => grant !== 'authorization_code' && grant !== 'refresh_token') === true) {
    throw new OAuthError(error, 'only the authorization_code and refresh_token grant types are supported');
  }
  if (metadata.response_types?.some((type) => type !== 'code') === true) {
    throw new OAuthError(error, 'only the code response type is supported');
  }
  return { ...metadata, client_name: metadata.client_name?.slice(0, MAX_NAME_LENGTH) };
}

const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
const REGISTRATIONS_REFUSED = 'too many client registrations from this address; try again later';

/**
 * RFC 7591 dynamic client registration: a public client, or one with a secret when it asks for one.
 * Registration needs no sign-in, so each address may register `perAddress` clients in the sign-up
 * throttle's window; past it the answer is 429 with the time to wait. Bad metadata is refused first
 * and counts for nothing.
 */
export async function registerClient(db: Db, body: unknown, from: { address: string; perAddress: number }) {
  const metadata = checkedMetadata(body, 'invalid_client_metadata');
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (!(AUTH_METHODS as readonly string[]).includes(method)) {
    throw new OAuthError('invalid_client_metadata', `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  }
  await reserveAttempt(db, clientRegistrationBuckets(from.address, from.perAddress), REGISTRATIONS_REFUSED).catch((error: unknown) => {
    if (!isAppError(error) || error.code !== 'rate_limited') throw error;
    throw new OAuthError('temporarily_unavailable', REGISTRATIONS_REFUSED, 429, { retryAfterSeconds: error.retryAfterSeconds ?? 1 });
  });
  const clientId = `mmw-client-${randomBytes(16).toString('base64url')}`;
  const secret = method === 'none' ? undefined : newOpaqueToken('secret');
  const issuedAt = Math.floor(Date.now() / 1000);
  await db.insert(oauthClients).values({
    clientId,
    kind: 'registered',
    clientName: metadata.client_name ?? null,
    redirectUris: metadata.redirect_uris,
    tokenEndpointAuthMethod: method,
    secretHash: secret?.hash ?? null,
  });
  return {
    ...metadata,
    client_id: clientId,
    client_id_issued_at: issuedAt,
    token_endpoint_auth_method: method,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    ...(secret === undefined ? {} : { client_secret: secret.token, client_secret_expires_at: 0 }),
  };
}

function asClient(row: typeof oauthClients.$inferSelect): OAuthClient {
  return {
    clientId: row.clientId,
    kind: row.kind,
    clientName: row.clientName,
    redirectUris: row.redirectUris,
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    secretHash: row.secretHash,
  };
}

/** A URL client id is a metadata document's address; anything else is a registered client's id. */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://') || clientId.startsWith('http://');
}

/**
 * The client of a client_id: a registered one from the table; a metadata document from the cache
 * while it is fresh, or fetched under the policy and cached. Unknown or refused: invalid_client.
 * Only the authorization request (a signed-in person's consent page) fetches: the token and
 * revocation endpoints, open to anyone, use what is stored, so they cannot be made to fetch.
 */
export async function resolveClient(
  db: Db,
  clientId: string,
  policy: ClientDocumentPolicy,
  options: { fetch: boolean } = { fetch: true },
): Promise<OAuthClient> {
  if (clientId.length === 0 || clientId.length > MAX_URI_LENGTH) throw new OAuthError('invalid_client', 'unknown client');
  const [row] = await db.select().from(oauthClients).where(eq(oauthClients.clientId, clientId)).limit(1);
  if (!isDocumentClientId(clientId)) {
    if (!row || row.kind !== 'registered') throw new OAuthError('invalid_client', 'unknown client');
    return asClient(row);
  }
  const url = clientDocumentUrl(clientId, policy);
  const fresh = row?.fetchedAt != null && Date.now() - row.fetchedAt.getTime() < DOCUMENT_CACHE_MS;
  if (row?.kind === 'metadata_document' && (fresh || !options.fetch)) return asClient(row);
  if (!options.fetch) throw new OAuthError('invalid_client', 'unknown client: its metadata document was never accepted');
  const document = await fetchClientDocument(url, policy);
  const metadata = checkedMetadata(document, 'invalid_client');
  if ((document as { client_id?: unknown }).client_id !== clientId) {
    throw new OAuthError('invalid_client', 'the client id metadata document names another client_id');
  }
  const method = metadata.token_endpoint_auth_method ?? 'none';
  if (method !== 'none') throw new OAuthError('invalid_client', 'a metadata document client must use token_endpoint_auth_method none');
  const values = {
    clientId,
    kind: 'metadata_document' as const,
    clientName: metadata.client_name ?? null,
    redirectUris: metadata.redirect_uris,
    tokenEndpointAuthMethod: 'none',
    secretHash: null,
    fetchedAt: new Date(),
  };
  await db.insert(oauthClients).values(values).onConflictDoUpdate({ target: oauthClients.clientId, set: values });
  return { ...values };
}

/** The token and revocation endpoints' client check: a secret client must present its secret. */
export function authenticateClient(client: OAuthClient, presentedSecret: string | undefined): void {
  if (client.secretHash === null) return;
  if (presentedSecret === undefined || !hashesEqual(client.secretHash, hashOpaqueToken(presentedSecret))) {
    throw new OAuthError('invalid_client', 'client authentication failed');
  }
}
