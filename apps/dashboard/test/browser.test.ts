import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshots, useBrowser } from './browser-fixture.ts';
import { connectMcp } from '@mmw/test-support';
import { uniqueEmail, useDashboard } from './fixtures.ts';

const f = useDashboard();
const chromium = useBrowser();

async function person(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 820 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.url });
  const page = await context.newPage();
  // A step takes well under a second; on a machine busy with other test files one once took over 15 s.
  page.setDefaultTimeout(30_000);
  return { context, page };
}

async function shot(page: Page, name: string, mask: string[] = []): Promise<void> {
  await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true, mask: mask.map((selector) => page.locator(selector)) });
}

async function signUp(page: Page, name: string, email: string, path = '/signup'): Promise<void> {
  await page.goto(`${f.url}${path}`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Create account' }).click();
}

// records, records-phone, audit and visibility are photographed by records-browser.test.ts, with the
// data those pages are about; this walk photographs the pages it alone reaches.
describe('the web UI, as people use it', () => {
  it('signs up, forms an organization, invites, issues a key used over MCP, shows records, applies visibility and shows the audit log', async () => {
    const owner = await person();
    const page = owner.page;
    await page.goto(`${f.url}/`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/signin');
    await page.getByRole('heading', { name: 'Sign in to MMW' }).waitFor();
    await shot(page, 'sign-in');

    const ownerEmail = uniqueEmail('olga');
    await signUp(page, 'Olga Owner', ownerEmail);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByLabel('Organization name').fill('Acme Robotics');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await expect.poll(() => page.locator('#account-switcher option:checked').textContent()).toBe('Acme Robotics');
    const accountId = new URL(page.url()).pathname.split('/')[2] ?? '';
    await page.getByLabel('New project name').fill('backend');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('link', { name: 'backend' }).waitFor();
    await shot(page, 'projects');

    // Invite a colleague by link; the link is shown to the admin.
    const colleagueEmail = uniqueEmail('carl');
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Invite by email').fill(colleagueEmail);
    await page.getByRole('button', { name: 'Create invitation' }).click();
    const link = (await page.getByTestId('invite-link').textContent()) ?? '';
    expect(link).toMatch(/\/invite\/[a-z2-7]{32}$/);
    await shot(page, 'members', ['[data-testid=invite-link]']);

    const colleague = await person();
    await signUp(colleague.page, 'Carl Colleague', colleagueEmail, `/signup?next=${encodeURIComponent(new URL(link).pathname)}`);
    // An invitation binds by email: the address is proven by the link mailed to it first.
    await colleague.page.getByRole('button', { name: 'Accept invitation' }).click();
    await colleague.page.getByText('verify your email address first').waitFor();
    await colleague.page.goto(f.mail.lastLink(colleagueEmail, '/verify-email/'));
    await colleague.page.getByText(`${colleagueEmail} is verified`).waitFor();
    await colleague.page.goto(link);
    await colleague.page.getByRole('button', { name: 'Accept invitation' }).click();
    await colleague.page.getByRole('heading', { name: 'Projects' }).waitFor();
    expect(new URL(colleague.page.url()).pathname).toBe(`/a/${accountId}/projects`);

    // Issue a key: shown once, with the claude line.
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByLabel('Key name').fill('olga laptop');
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'default' });
    await page.getByRole('button', { name: 'Issue key' }).click();
    const key = ((await page.getByTestId('issued-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^mmw_/);
    expect(await page.getByTestId('claude-command').textContent()).toBe(
      `claude mcp add --transport http mmw ${f.mcp.url} --header "Authorization: Bearer ${key}"`,
    );
    await shot(page, 'key-issued', ['[data-testid=issued-key]', '[data-testid=claude-command]']);
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.getByTestId('issued-key').waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: key.slice(0, 12) + '…' }).waitFor();
    expect(await page.content()).not.toContain(key);
    await shot(page, 'keys');

    // No key acts for someone else: the owner sends a key request, the colleague accepts it and
    // sees the key once; it is theirs. Both assistants remember into workspace "ops".
    expect(await page.getByLabel('Acts for').count()).toBe(0);
    expect(await page.getByRole('columnheader', { name: 'Acts for' }).count()).toBe(0);
    await page.getByLabel('Requested key name').fill('carl laptop');
    await page.getByLabel('Colleague', { exact: true }).selectOption({ label: colleagueEmail });
    await page.getByLabel('Project of the request').selectOption({ label: 'default' });
    await page.getByRole('button', { name: 'Send key request' }).click();
    await page.getByRole('button', { name: 'Withdraw' }).waitFor();
    await colleague.page.getByRole('link', { name: 'Keys' }).click();
    await colleague.page.getByRole('button', { name: 'Accept key carl laptop' }).click();
    const colleagueKey = ((await colleague.page.getByTestId('issued-key').textContent()) ?? '').trim();
    await colleague.page.getByRole('button', { name: 'I have copied it' }).click();
    await colleague.page.getByTestId('issued-key').waitFor({ state: 'detached' });

    const olgaAgent = await connectMcp(f.mcp.url, key);
    await olgaAgent.ok('remember', {
      content: 'Staging is deployed with the systemd unit app-staging',
      workspace: 'ops',
      fact_key: 'deploy-staging',
      source_id: 'docs/deploy.md',
      source_hash: 'sha256:9f2c4e1a',
      confidence: 0.9,
    });
    await olgaAgent.ok('remember', { content: 'Staging is deployed by the release pipeline', workspace: 'ops', fact_key: 'deploy-staging' });
    const carlAgent = await connectMcp(f.mcp.url, colleagueKey);
    await carlAgent.ok('remember', { content: 'Carl keeps the on-call rota in the wiki', workspace: 'ops' });

    // The records show in the UI, with status badges and versions.
    await page.getByRole('link', { name: 'Workspaces & records' }).click();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'default' });
    await page.getByRole('cell', { name: 'ops' }).waitFor();
    await shot(page, 'workspaces');
    await page.getByRole('link', { name: 'ops' }).click();
    await page.getByText('Staging is deployed by the release pipeline').waitFor();
    await page.getByText('Carl keeps the on-call rota in the wiki').waitFor();
    // The two versions of deploy-staging are folded under the newest, which shows the conflict.
    await expect.poll(() => page.locator('.badge.conflict').count(), { timeout: 15_000 }).toBe(1);
    await page.getByLabel('Search records').fill('systemd unit');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Results for “systemd unit”').waitFor();
    await expect.poll(() => page.locator('article.record').count()).toBe(1);
    await page.getByLabel('Search records').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('article.record').count(), { timeout: 15_000 }).toBe(2);
    const recordsUrl = page.url();

    // Author only: each reads only their own records, in the UI and over MCP.
    await page.getByRole('link', { name: 'Visibility' }).click();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'default' });
    const ops = page.getByRole('region', { name: 'Workspace ops' });
    await ops.getByLabel('Author only').check();
    await ops.getByRole('button', { name: 'Save rule for workspace ops' }).click();
    await ops.getByText('Now: Author only').waitFor();

    await page.getByRole('link', { name: 'Workspaces & records' }).click();
    await page.getByLabel('Project', { exact: true }).selectOption({ label: 'default' });
    await page.getByRole('link', { name: 'ops' }).click();
    await page.getByText('Staging is deployed by the release pipeline').waitFor();
    await expect.poll(() => page.locator('article.record').count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByText('Carl keeps the on-call rota').count()).toBe(0);
    const carlSees = await carlAgent.ok<{ result: Array<{ content: string }> }>('search', { query: '', workspace: 'ops' });
    expect(carlSees.result.map((row) => row.content)).toEqual(['Carl keeps the on-call rota in the wiki']);
    await colleague.page.goto(`${f.url}/a/${accountId}/workspaces`);
    await colleague.page.getByLabel('Project', { exact: true }).selectOption({ label: 'default' });
    await colleague.page.getByRole('link', { name: 'ops' }).click();
    await colleague.page.getByText('Carl keeps the on-call rota in the wiki').waitFor();
    expect(await colleague.page.getByText('app-staging').count()).toBe(0);

    // The audit log: admins read and filter it; members cannot.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'visibility.changed' }).waitFor();
    await page.getByRole('cell', { name: 'member.joined' }).waitFor();
    await page.getByLabel('Action').selectOption('key.issued');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
    await page.getByLabel('Action').selectOption('');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('cell', { name: 'visibility.changed' }).waitFor();
    await colleague.page.goto(`${f.url}/a/${accountId}/audit`);
    await colleague.page.getByText('Only owners and admins read the audit log.').waitFor();

    // On a phone.
    const phone = await chromium.browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await owner.context.storageState() });
    const small = await phone.newPage();
    await small.goto(recordsUrl);
    await small.getByText('Staging is deployed by the release pipeline').waitFor();
    const overflow = await small.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBe(0);

    await olgaAgent.close();
    await carlAgent.close();
    await phone.close();
    await colleague.context.close();
    await owner.context.close();
  }, 120_000);
});
