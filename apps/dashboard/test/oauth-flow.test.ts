import { describe, expect, it } from 'vitest';
import { errorCode, organizationWith, useDashboard, type Organization } from './fixtures.ts';
import { pkce, postForm, rawToolCall } from './oauth-support.ts';

// Access tokens live two seconds here, so that one can be seen to expire.
const f = useDashboard({ env: { MMW_OAUTH_ACCESS_TOKEN_SECONDS: '2' } });
const REDIRECT = 'https://connector.example.com/callback';

async function register(scope?: string): Promise<string> {
  const response = await fetch(`${f.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Flow client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...(scope ? { scope } : {}) }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

function authorizeParams(clientId: string, challenge: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    resource: f.mcp.url,
    ...extra,
  };
}

/** The person consents on the dashboard (through its API, as the consent page calls it); the code the client receives. */
async function consent(org: Organization, params: Record<string, string>): Promise<string> {
  const { redirectTo } = await org.owner.client.oauth.approve.mutate({ accountId: org.accountId, projectId: org.projectId, params });
  const url = new URL(redirectTo);
  expect(url.searchParams.get('iss')).toBe(f.url);
  return url.searchParams.get('code') ?? '';
}

async function exchange(clientId: string, code: string, verifier: string, extra: Record<string, string> = {}) {
  return postForm(`${f.url}/oauth/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
    resource: f.mcp.url,
    ...extra,
  });
}

async function grantsOf(org: Organization): Promise<number> {
  return (await org.owner.client.oauth.clients.query({ accountId: org.accountId })).length;
}

describe('OAuth discovery', () => {
  it('serves protected resource metadata on both paths and authorization server metadata with iss support', async () => {
    const origin = new URL(f.mcp.url).origin;
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const metadata = (await (await fetch(`${origin}${path}`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ resource: f.mcp.url, authorization_servers: [f.url], scopes_supported: ['memory:read', 'memory:write'] });
    }
    const server = (await (await fetch(`${f.url}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({
      issuer: f.url,
      authorization_endpoint: `${f.url}/oauth/authorize`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });

  it('answers /mcp without a credential with resource_metadata, and a bad mmw_ key with the plain challenge', async () => {
    const none = await rawToolCall(f.mcp.url, undefined, 'search', { query: 'x' });
    expect(none.status).toBe(401);
    expect(none.challenge).toBe(`Bearer resource_metadata="${new URL(f.mcp.url).origin}/.well-known/oauth-protected-resource/mcp"`);
    const badKey = await rawToolCall(f.mcp.url, 'mmw_000000000000000000000000000000000000', 'search', { query: 'x' });
    expect(badKey.status).toBe(401);
    expect(badKey.challenge).toBe('Bearer realm="mmw", error="invalid_token"');
    const key = await f.mcp.key('oauth-key-account');
    expect((await rawToolCall(f.mcp.url, key.key, 'search', { query: 'x' })).status).toBe(200);
  });
});

describe('the authorization code flow refuses what it must, and grants nothing then', () => {
  it('a wrong redirect URI is shown to the person, never followed', async () => {
    const org = await organizationWith(f, 'oauth-redirect');
    const clientId = await register();
    const params = authorizeParams(clientId, pkce().challenge, { redirect_uri: 'https://attacker.example.com/callback' });
    expect(await errorCode(org.owner.client.oauth.describe.query({ params }))).toBe('BAD_REQUEST');
    expect(await errorCode(org.owner.client.oauth.approve.mutate({ accountId: org.accountId, projectId: org.projectId, params }))).toBe('BAD_REQUEST');
    expect(await grantsOf(org)).toBe(0);
  });

  it('a request without PKCE, or for another resource, goes back to the client with the error', async () => {
    const org = await organizationWith(f, 'oauth-pkce');
    const clientId = await register();
    const noPkce = authorizeParams(clientId, '');
    delete noPkce.code_challenge;
    const missing = await org.owner.client.oauth.describe.query({ params: noPkce });
    expect(missing.ok).toBe(false);
    if (!missing.ok) expect(new URL(missing.redirectTo).searchParams.get('error')).toBe('invalid_request');
    const plain = await org.owner.client.oauth.describe.query({ params: authorizeParams(clientId, pkce().challenge, { code_challenge_method: 'plain' }) });
    expect(plain.ok).toBe(false);
    const other = await org.owner.client.oauth.describe.query({
      params: authorizeParams(clientId, pkce().challenge, { resource: 'https://other.example.com/mcp' }),
    });
    expect(other.ok).toBe(false);
    if (!other.ok) {
      const url = new URL(other.redirectTo);
      expect(url.searchParams.get('error')).toBe('invalid_target');
      expect(url.searchParams.get('state')).toBe('st-1');
      expect(url.searchParams.get('iss')).toBe(f.url);
    }
    expect(await grantsOf(org)).toBe(0);
  });

  it('a missing or wrong verifier is refused and spends the code', async () => {
    const org = await organizationWith(f, 'oauth-verifier');
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = await consent(org, authorizeParams(clientId, challenge));
    expect(await exchange(clientId, code, '')).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const code2 = await consent(org, authorizeParams(clientId, challenge));
    expect(await exchange(clientId, code2, pkce().verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await exchange(clientId, code2, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await grantsOf(org)).toBe(0);
  });

  it('a code exchanged for another resource is refused', async () => {
    const org = await organizationWith(f, 'oauth-resource');
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = await consent(org, authorizeParams(clientId, challenge));
    expect(await exchange(clientId, code, verifier, { resource: 'https://other.example.com/mcp' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_target' },
    });
    expect(await grantsOf(org)).toBe(0);
  });

  it('a replayed code is refused and revokes what the code granted', async () => {
    const org = await organizationWith(f, 'oauth-replay');
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = await consent(org, authorizeParams(clientId, challenge));
    const first = await exchange(clientId, code, verifier);
    expect(first.status).toBe(200);
    const access = String(first.body.access_token);
    expect((await rawToolCall(f.mcp.url, access, 'search', { query: 'x' })).status).toBe(200);
    expect(await exchange(clientId, code, verifier)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await rawToolCall(f.mcp.url, access, 'search', { query: 'x' })).status).toBe(401);
    const [grant] = await org.owner.client.oauth.clients.query({ accountId: org.accountId });
    expect(grant?.revokedAt).not.toBeNull();
  });

  it('a token is refused at another resource address, after it expires, and once revoked in the dashboard', async () => {
    const org = await organizationWith(f, 'oauth-expiry');
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const tokens = await exchange(clientId, await consent(org, authorizeParams(clientId, challenge)), verifier);
    const access = String(tokens.body.access_token);
    expect((await rawToolCall(f.mcp.url, access, 'search', { query: 'x' })).status).toBe(200);
    // The same endpoint under another name is another resource: the token's audience does not match.
    const elsewhere = f.mcp.url.replace('127.0.0.1', 'localhost');
    expect((await rawToolCall(elsewhere, access, 'search', { query: 'x' })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const expired = await rawToolCall(f.mcp.url, access, 'search', { query: 'x' });
    expect(expired.status).toBe(401);
    expect(expired.challenge).toContain('error="invalid_token"');
    const refreshed = await postForm(`${f.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    const fresh = String(refreshed.body.access_token);
    expect((await rawToolCall(f.mcp.url, fresh, 'search', { query: 'x' })).status).toBe(200);
    const [grant] = await org.owner.client.oauth.clients.query({ accountId: org.accountId });
    await org.owner.client.oauth.revokeClient.mutate({ accountId: org.accountId, grantId: grant?.id ?? '' });
    expect((await rawToolCall(f.mcp.url, fresh, 'search', { query: 'x' })).status).toBe(401);
    const audit = await org.owner.client.audit.list.query({ accountId: org.accountId });
    const actions = JSON.stringify(audit);
    expect(actions).toContain('oauth.granted');
    expect(actions).toContain('oauth.revoked');
  });

  it('a second use of a refresh token revokes the grant', async () => {
    const org = await organizationWith(f, 'oauth-rotation');
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const tokens = await exchange(clientId, await consent(org, authorizeParams(clientId, challenge)), verifier);
    const refresh = { grant_type: 'refresh_token', refresh_token: String(tokens.body.refresh_token), client_id: clientId };
    const rotated = await postForm(`${f.url}/oauth/token`, refresh);
    expect(rotated.status).toBe(200);
    expect(await postForm(`${f.url}/oauth/token`, refresh)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await rawToolCall(f.mcp.url, String(rotated.body.access_token), 'search', { query: 'x' })).status).toBe(401);
  });

  it('a token without memory:write gets 403 insufficient_scope naming it, and may still read', async () => {
    const org = await organizationWith(f, 'oauth-scope');
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = await consent(org, authorizeParams(clientId, challenge, { scope: 'memory:read' }));
    const tokens = await exchange(clientId, code, verifier);
    expect(tokens.body.scope).toBe('memory:read');
    const access = String(tokens.body.access_token);
    const write = await rawToolCall(f.mcp.url, access, 'remember', { content: 'not allowed' });
    expect(write.status).toBe(403);
    expect(write.challenge).toBe('Bearer error="insufficient_scope", scope="memory:write"');
    expect(write.body).toContain('memory:write');
    expect((await rawToolCall(f.mcp.url, access, 'search', { query: 'x' })).status).toBe(200);
  });
});
