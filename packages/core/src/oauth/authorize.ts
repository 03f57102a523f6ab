import { oauthCodes, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { AppError } from '../errors.ts';
import type { Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';
import { resolveClient, type OAuthClient } from './clients.ts';
import { OAuthError, type OAuthErrorCode } from './oauth-error.ts';
import { newOpaqueToken } from './opaque-token.ts';
import { isScope, SCOPES, type Scope } from './scopes.ts';
import { sameResource, type OAuthSettings } from './settings.ts';

/** The query of an authorization request, as the consent page passes it on; every field is checked. */
export const authorizationParamsSchema = z.record(z.string().max(100), z.string().max(4000));
export type AuthorizationParams = z.infer<typeof authorizationParamsSchema>;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  scopes: Scope[];
  state: string | undefined;
  resource: string;
}

/** What the consent page shows, or where a refused request sends the browser back to. */
export type CheckedAuthorization =
  | { ok: true; request: AuthorizationRequest }
  | { ok: false; redirectTo: string };

const CHALLENGE = /^[\w-]{43}$/;

/** The client's redirect URI with the response's parameters and the issuer (RFC 9207). */
export function authorizationRedirect(redirectUri: string, issuer: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set('iss', issuer);
  return url.href;
}

/**
 * Checks an authorization request. An unknown client or a redirect URI it did not register is an
 * error shown to the person (the browser is never sent to an unchecked address); anything else wrong
 * goes back to the client as an error response.
 */
export async function checkAuthorization(
  db: Db,
  settings: OAuthSettings,
  issuer: string,
  params: AuthorizationParams,
): Promise<CheckedAuthorization> {
  const clientId = params.client_id;
  if (clientId === undefined) throw new OAuthError('invalid_request', 'client_id is missing');
  const client = await resolveClient(db, clientId, settings.clientDocuments);
  const redirectUri = params.redirect_uri;
  if (redirectUri === undefined || !client.redirectUris.includes(redirectUri)) {
    throw new OAuthError('invalid_request', 'redirect_uri does not match a redirect URI the client registered');
  }
  const state = params.state;
  const refuse = (error: OAuthErrorCode, description: string): CheckedAuthorization => ({
    ok: false,
    redirectTo: authorizationRedirect(redirectUri, issuer, { error, error_description: description, state }),
  });
  if (params.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  if (params.code_challenge_method !== 'S256') return refuse('invalid_request', 'PKCE with code_challenge_method S256 is required');
  const codeChallenge = params.code_challenge;
  if (codeChallenge === undefined || !CHALLENGE.test(codeChallenge)) {
    return refuse('invalid_request', 'code_challenge must be the base64url SHA-256 of the code verifier');
  }
  const resource = params.resource ?? settings.resource;
  if (!sameResource(resource, settings.resource)) {
    return refuse('invalid_target', `this server issues tokens only for ${settings.resource}`);
  }
  const asked = (params.scope ?? SCOPES.join(' ')).split(' ').filter((scope) => scope !== '');
  const unknown = asked.find((scope) => !isScope(scope));
  if (unknown !== undefined) return refuse('invalid_scope', `unknown scope ${unknown.slice(0, 100)}`);
  const scopes = SCOPES.filter((scope) => asked.includes(scope));
  if (scopes.length === 0) return refuse('invalid_scope', 'no scope requested');
  return { ok: true, request: { client, redirectUri, codeChallenge, scopes, state, resource: settings.resource } };
}

/** The person declined: the client is told access_denied. */
export function denyAuthorization(request: AuthorizationRequest, issuer: string): string {
  return authorizationRedirect(request.redirectUri, issuer, {
    error: 'access_denied',
    error_description: 'the person declined',
    state: request.state,
  });
}

/**
 * The person consented for one project of an account they are a member of: a code for the client,
 * good once and for a minute, bound to the client, its redirect URI, the PKCE challenge and the
 * resource. Returns where the browser goes next.
 */
export async function approveAuthorization(
  db: Db,
  settings: OAuthSettings,
  issuer: string,
  member: Member,
  request: AuthorizationRequest,
  projectId: string,
): Promise<string> {
  const code = newOpaqueToken('code');
  await withTenant(db, member.accountId, async (tx) => {
    const project = await getProject(tx, member, projectId);
    if (!project.active) throw new AppError('project_unavailable', 'the project is deactivated; reactivate it first');
    await tx.insert(oauthCodes).values({
      codeHash: code.hash,
      accountId: member.accountId,
      projectId: project.id,
      userId: member.userId,
      clientId: request.client.clientId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: request.scopes,
      resource: request.resource,
      expiresAt: new Date(Date.now() + settings.codeSeconds * 1000),
    });
  });
  return authorizationRedirect(request.redirectUri, issuer, { code: code.token, state: request.state });
}
