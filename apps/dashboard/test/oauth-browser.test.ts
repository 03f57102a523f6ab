import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, screenshots, useBrowser } from './browser-fixture.ts';
import { organizationWith, PASSWORD, useDashboard } from './fixtures.ts';
import { MemoryProvider, postForm, rawToolCall } from './oauth-support.ts';

const f = useDashboard();
const chromium = useBrowser();
const viewports = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function connect(mcpUrl: string, provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 'connector', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  return client;
}

describe.each(viewports)('a connector through OAuth, in a real browser at $width px', (viewport) => {
  it('signs in, consents, gets a code and tokens, calls a tool, refreshes, is revoked and then refused', async () => {
    const orgName = `oauth-browser-${viewport.name}`;
    const org = await organizationWith(f, orgName);
    const callback = 'http://127.0.0.1:9/callback';
    const provider = new MemoryProvider(callback);

    // The SDK's client meets the 401, reads the resource metadata, registers (DCR) and asks to authorize.
    const first = new StreamableHTTPClientTransport(new URL(f.mcp.url), { authProvider: provider });
    await expect(new Client({ name: 'connector', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl;
    if (authorizationUrl === undefined) throw new Error('no authorization URL');
    expect(authorizationUrl.origin).toBe(f.url);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(f.mcp.url);

    const context = await chromium.browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    let redirected: URL | undefined;
    await context.route(`${callback}**`, async (route) => {
      redirected = new URL(route.request().url());
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'connected' });
    });
    await page.goto(authorizationUrl.href);
    await page.getByLabel('Email').fill(org.owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Connect Test connector to MMW' }).waitFor();
    await page.getByText('remember new records and forget records').waitFor();
    await page.getByLabel('Organization').selectOption({ label: orgName });
    await page.getByLabel('Project').selectOption(org.projectId);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop') await page.screenshot({ path: `${screenshots}oauth-consent.png`, fullPage: true });
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${callback}**`);
    if (redirected === undefined) throw new Error('the browser was not sent back');
    expect(redirected.searchParams.get('iss')).toBe(f.url);
    expect(redirected.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));
    const code = redirected.searchParams.get('code') ?? '';

    await first.finishAuth(code);
    const tokens = provider.tokens();
    if (tokens?.refresh_token === undefined) throw new Error('no tokens');
    expect(tokens.scope).toBe('memory:read memory:write');

    const client = await connect(f.mcp.url, provider);
    const remembered = await client.callTool({ name: 'remember', arguments: { content: 'the connector remembers through OAuth' } });
    expect(remembered.isError).not.toBe(true);
    const found = await client.callTool({ name: 'search', arguments: { query: 'connector OAuth' } });
    expect(JSON.stringify(found.structuredContent)).toContain('the connector remembers through OAuth');
    await client.close();

    // Refresh: the SDK's auth() exchanges the refresh token for a new pair; the old refresh token is spent.
    const oldRefresh = tokens.refresh_token;
    expect(await auth(provider, { serverUrl: f.mcp.url })).toBe('AUTHORIZED');
    const refreshed = provider.tokens();
    expect(refreshed?.access_token).not.toBe(tokens.access_token);
    expect(refreshed?.refresh_token).not.toBe(oldRefresh);
    const again = await connect(f.mcp.url, provider);
    expect((await again.callTool({ name: 'search', arguments: { query: 'connector' } })).isError).not.toBe(true);
    await again.close();

    // The Keys page lists the connected client beside the keys.
    await page.goto(`${f.url}/a/${org.accountId}/keys`);
    await page.getByRole('heading', { name: 'Connected clients' }).waitFor();
    await page.getByRole('cell', { name: /Test connector/ }).waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop') await page.screenshot({ path: `${screenshots}oauth-connected-clients.png`, fullPage: true });

    // RFC 7009 revocation by the client: the next call is refused.
    const clientId = provider.clientInformation()?.client_id ?? '';
    const revoked = await postForm(`${f.url}/oauth/revoke`, { token: refreshed?.access_token ?? '', client_id: clientId });
    expect(revoked.status).toBe(200);
    const refused = await rawToolCall(f.mcp.url, refreshed?.access_token, 'search', { query: 'connector' });
    expect(refused.status).toBe(401);
    expect(refused.challenge).toContain('resource_metadata=');
    const refreshAfter = await postForm(`${f.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: refreshed?.refresh_token ?? '',
      client_id: clientId,
    });
    expect(refreshAfter).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    await page.reload();
    await page.getByText('revoked').first().waitFor();
    await context.close();
  }, 60_000);
});
