import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@mmw/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../src/index.ts';
import { dashboardClient } from './dashboard-client.ts';
import { organizationWith, PASSWORD, useDashboard } from './fixtures.ts';
import { pkce, postForm, rawToolCall } from './oauth-support.ts';

// The development setting lets this test serve client id metadata documents over http on loopback;
// a second dashboard with the production setting shows they are refused there, unfetched.
const f = useDashboard({ env: { MMW_OAUTH_DEV_LOOPBACK_CLIENTS: 'true', MMW_OAUTH_CLIENT_DOCUMENT_TIMEOUT_MS: '1500' } });
const REDIRECT = 'https://connector.example.com/callback';
const hits = new Map<string, number>();
let documents: Server;
let base = '';
let production: FastifyInstance;
let productionUrl = '';

function document(path: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ client_id: `${base}${path}`, client_name: 'Document client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...extra });
}

beforeAll(async () => {
  documents = createServer((request, response) => {
    const path = request.url ?? '';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/slow.json') return; // never answers
    response.setHeader('content-type', 'application/json');
    if (path === '/malformed.json') return response.end('{"client_id": ');
    if (path === '/oversized.json') return response.end(document(path, { client_name: 'x'.repeat(10_000) }));
    if (path === '/other-id.json') return response.end(document('/someone-else.json'));
    if (path === '/moved.json') return response.writeHead(302, { location: '/good.json' }).end();
    return response.end(document(path));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  const address = documents.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
  production = await buildDashboardApp({ db: f.db.database.db, logLevel: 'silent', mcpUrl: f.mcp.url, config: loadConfig({}) });
  await production.listen({ host: '127.0.0.1', port: 0 });
  const productionAddress = production.server.address();
  if (productionAddress === null || typeof productionAddress === 'string') throw new Error('no port');
  productionUrl = `http://127.0.0.1:${productionAddress.port}`;
});
afterAll(async () => {
  await production.close();
  await new Promise((resolve) => documents.close(resolve));
});

function params(clientId: string, challenge: string): Record<string, string> {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: f.mcp.url,
  };
}

describe('client id metadata documents', () => {
  it('a client whose id is its document URL consents, gets tokens and calls a tool; the document is cached', async () => {
    const org = await organizationWith(f, 'cimd-good');
    const clientId = `${base}/good.json`;
    const { verifier, challenge } = pkce();
    const described = await org.owner.client.oauth.describe.query({ params: params(clientId, challenge) });
    expect(described).toMatchObject({ ok: true, clientName: 'Document client', clientId });
    const { redirectTo } = await org.owner.client.oauth.approve.mutate({ accountId: org.accountId, projectId: org.projectId, params: params(clientId, challenge) });
    const code = new URL(redirectTo).searchParams.get('code') ?? '';
    const tokens = await postForm(`${f.url}/oauth/token`, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
    });
    expect(tokens.status).toBe(200);
    expect((await rawToolCall(f.mcp.url, String(tokens.body.access_token), 'search', { query: 'x' })).status).toBe(200);
    expect(hits.get('/good.json')).toBe(1);
  });

  it('malformed, oversized, slow, redirected and mismatched documents are refused, and nothing hangs', async () => {
    const org = await organizationWith(f, 'cimd-bad');
    const cases: Array<[string, RegExp]> = [
      ['/malformed.json', /not JSON/],
      ['/oversized.json', /larger than 5120 bytes/],
      ['/slow.json', /no complete answer within 1500 ms/],
      ['/moved.json', /answered 302/],
      ['/other-id.json', /another client_id/],
    ];
    for (const [path, message] of cases) {
      const started = Date.now();
      await expect(org.owner.client.oauth.describe.query({ params: params(`${base}${path}`, pkce().challenge) })).rejects.toThrow(message);
      expect(Date.now() - started).toBeLessThan(3000);
    }
    expect(hits.get('/good.json')).toBe(1);
  });

  it('the production setting refuses http and loopback, private and link-local addresses without fetching', async () => {
    const org = await organizationWith(f, 'cimd-production');
    const { client } = dashboardClient(productionUrl);
    await client.auth.signIn.mutate({ email: org.owner.email, password: PASSWORD });
    const describe = (clientId: string) => client.oauth.describe.query({ params: params(clientId, pkce().challenge) });
    await expect(describe(`${base}/production.json`)).rejects.toThrow(/must use https/);
    expect(hits.get('/production.json')).toBeUndefined();
    for (const url of ['https://127.0.0.1/client.json', 'https://localhost/client.json', 'https://10.0.0.8/client.json', 'https://169.254.169.254/latest', 'https://[::1]/client.json', 'https://[::ffff:192.168.1.1]/c.json']) {
      await expect(describe(url)).rejects.toThrow(/private, loopback or reserved/);
    }
    // The development setting allows loopback only: a private address is still refused before any connection.
    await expect(org.owner.client.oauth.describe.query({ params: params('http://10.0.0.8/client.json', pkce().challenge) })).rejects.toThrow(
      /private, loopback or reserved/,
    );
  });

  it('the token endpoint, open to anyone, never fetches a document no consent page accepted', async () => {
    const answer = await postForm(`${f.url}/oauth/token`, {
      grant_type: 'authorization_code',
      code: 'x',
      code_verifier: 'y',
      client_id: `${base}/never-consented.json`,
    });
    expect(answer).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(hits.get('/never-consented.json')).toBeUndefined();
  });
});
