import { readFile } from 'node:fs/promises';
import { connectMcp } from '@mmw/test-support';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, poll, screenshots, useBrowser } from './browser-fixture.ts';
import { organizationWith, PASSWORD, useDashboard, type Organization, type SignedIn } from './fixtures.ts';

const f = useDashboard();
const chromium = useBrowser();
const viewports = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let org: Organization & { members: Record<string, SignedIn> };
const ids: Record<string, string> = {};
let ownerKey = '';
const longText = `The release checklist: ${'check the migrations, tag the build, watch the error rate; '.repeat(8)}then announce it.`;

async function signedInPage(person: SignedIn, viewport: { width: number; height: number }): Promise<Page> {
  const context = await chromium.browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(`${f.url}/signin`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true });
}

beforeAll(async () => {
  org = await organizationWith(f, 'Acme', [{ name: 'mia', role: 'member' }]);
  const { key } = await org.owner.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'olga laptop' });
  ownerKey = key;
  const mcp = await connectMcp(f.mcp.url, key);
  for (let i = 1; i <= 22; i++) await mcp.ok('remember', { workspace: 'ops', content: `Runbook step ${i}: restart the worker pool`, scope: 'shared' });
  ids.old = (await mcp.ok<{ id: string }>('remember', { workspace: 'ops', content: 'Staging is deployed with the systemd unit app-staging', fact_key: 'deploy-staging', source_id: 'docs/deploy.md', source_hash: 'sha256:9f2c4e1a' })).id;
  ids.new = (await mcp.ok<{ id: string }>('remember', { workspace: 'ops', content: 'Staging is deployed by the release pipeline', fact_key: 'deploy-staging' })).id;
  ids.long = (await mcp.ok<{ id: string }>('remember', { workspace: 'ops', content: longText, derived_from: [ids.new] })).id;
  await mcp.close();
  await org.owner.client.members.changeRole.mutate({ accountId: org.accountId, userId: org.members.mia?.userId ?? '', role: 'admin' });
});

describe.each(viewports)('the records, audit and visibility pages at $width px', (viewport) => {
  it('pages, filters, folds versions, links records and shows a conflict side by side, accessibly', async () => {
    const page = await signedInPage(org.owner, viewport);
    const base = `${f.url}/a/${org.accountId}/records?project=${org.projectId}&workspace=ops`;
    await page.goto(base);
    const summary = page.getByTestId('records-summary');
    await poll(() => summary.textContent()).toBe('24 records · page 1 of 2 · older versions folded under the newest');
    expect(await page.locator('article.record').count()).toBe(20);
    expect(await page.getByText('Staging is deployed with the systemd unit app-staging').count()).toBe(0);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'phone') await shot(page, 'records-phone');
    else await shot(page, 'records');

    // Long content is shortened, with "more".
    const long = page.getByRole('article', { name: `Record ${ids.long}` });
    expect(await long.getByText('then announce it.').count()).toBe(0);
    await long.getByRole('button', { name: 'more' }).click();
    await long.getByText('then announce it.', { exact: false }).waitFor();

    // Pages and filters live in the URL.
    await page.getByRole('button', { name: 'Next page' }).click();
    await poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
    await poll(() => page.locator('article.record').count()).toBe(4);
    await page.getByLabel('Status').selectOption('conflict');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(() => new URL(page.url()).searchParams.get('status')).toBe('conflict');
    await poll(() => page.locator('article.record').count()).toBe(1);
    await page.goto(`${base}&scope=shared`);
    await poll(() => summary.textContent()).toBe('22 records · page 1 of 2 · older versions folded under the newest');
    expect(await page.getByLabel('Scope').inputValue()).toBe('shared');
    await page.getByLabel('Source').fill('dashboard');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(() => new URL(page.url()).searchParams.get('source')).toBe('dashboard');
    expect(new URL(page.url()).searchParams.get('scope')).toBe('shared');
    await poll(() => page.locator('article.record').count()).toBe(0);
    await page.getByLabel('Source').fill('agent');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await poll(() => summary.textContent()).toBe('22 records · page 1 of 2 · older versions folded under the newest');
    await page.goto(`${base}&q=${encodeURIComponent('systemd unit')}`);
    await poll(() => summary.textContent()).toBe('Results for “systemd unit” · 1 found');
    expect(await page.getByLabel('Search records').inputValue()).toBe('systemd unit');

    // The record's own page, reached from the summary's derived_from link.
    await page.goto(`${base}&fact_key=deploy-staging`);
    const newest = page.getByRole('article', { name: `Record ${ids.new}` });
    await newest.getByRole('link', { name: /2 versions/ }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/a/${org.accountId}/records/${ids.new}`);
    const conflict = page.getByRole('group', { name: `Conflict with record ${ids.old}` });
    await conflict.getByText('Staging is deployed with the systemd unit app-staging').waitFor();
    await conflict.getByText('Staging is deployed by the release pipeline').waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop') await shot(page, 'record-conflict');
    await page.goto(`${f.url}/a/${org.accountId}/records/${ids.long}?project=${org.projectId}`);
    await page.getByRole('region', { name: 'Derived from' }).getByRole('link', { name: 'Staging is deployed by the release pipeline' }).click();
    await poll(() => new URL(page.url()).pathname).toBe(`/a/${org.accountId}/records/${ids.new}`);
    await page.context().close();
  });

  it('names people in the audit log, keeps its filters in the URL, and shows errors beside their field', async () => {
    const page = await signedInPage(org.owner, viewport);
    await page.goto(`${f.url}/a/${org.accountId}/audit?action=member.role_changed`);
    const row = page.getByRole('row').filter({ hasText: 'member.role_changed' });
    await row.getByText(`mia <${org.members.mia?.email ?? ''}>`).waitFor();
    await row.getByText('Acme-owner').waitFor();
    expect(await page.getByLabel('Action').inputValue()).toBe('member.role_changed');
    await poll(() => page.locator('tbody tr').count()).toBe(1);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop') await shot(page, 'audit');
    // The CSV of the filtered log names the people too.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await readFile(await download.path(), 'utf8');
    expect(download.suggestedFilename()).toMatch(/^mmw-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(csv.trim().split('\n')).toHaveLength(2);
    expect(csv).toContain(`mia <${org.members.mia?.email ?? ''}>`);
    expect(csv).toContain('Acme-owner');

    await page.goto(`${f.url}/a/${org.accountId}/projects`);
    await page.getByLabel('New project name').fill('p'.repeat(101));
    await page.getByRole('button', { name: 'Create project' }).click();
    const field = page.getByLabel('New project name');
    await poll(() => field.getAttribute('aria-invalid')).toBe('true');
    await page.locator('.field-error').getByText('Name is too long: at most 100 characters.').waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.context().close();
  });

  it('locks restricted workspaces, asks before listing nobody, and says "Saved." beside the button', async () => {
    const page = await signedInPage(org.owner, viewport);
    await page.goto(`${f.url}/a/${org.accountId}/visibility?project=${org.projectId}`);
    const ops = page.getByRole('region', { name: 'Workspace ops' });
    await ops.getByLabel('Listed members and roles').check();
    await ops.getByRole('button', { name: 'Save rule for workspace ops' }).click();
    const ask = page.getByRole('dialog', { name: 'Nobody is listed' });
    await ask.getByRole('button', { name: 'Save with nobody listed' }).click();
    await ops.getByText('Now: Listed: nobody but the author').waitFor();
    await ops.getByText('Saved.').waitFor();
    await ops.getByRole('img', { name: 'Restricted' }).waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop') await shot(page, 'visibility');
    await page.goto(`${f.url}/a/${org.accountId}/workspaces?project=${org.projectId}`);
    await page.getByRole('row', { name: /ops/ }).getByRole('img', { name: 'Restricted' }).waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await org.owner.client.visibility.set.mutate({ accountId: org.accountId, projectId: org.projectId, workspaceId: await opsId(), rule: null });
    await page.context().close();
  });

  it('answers two admins saving the same rule at once, each with "Saved.", one rule holding', async () => {
    const mia = org.members.mia;
    if (!mia) throw new Error('mia missing');
    const pages = [await signedInPage(org.owner, viewport), await signedInPage(mia, viewport)];
    const choices = ['Author only', 'Whole organization'] as const;
    const regions = await Promise.all(
      pages.map(async (page, i) => {
        await page.goto(`${f.url}/a/${org.accountId}/visibility?project=${org.projectId}`);
        const ops = page.getByRole('region', { name: 'Workspace ops' });
        await ops.getByLabel(choices[i] ?? 'Author only').check();
        return ops;
      }),
    );
    await Promise.all(regions.map((ops) => ops.getByRole('button', { name: 'Save rule for workspace ops' }).click()));
    for (const ops of regions) await ops.getByText('Saved.').waitFor();
    for (const page of pages) expect(await page.getByRole('alert').count()).toBe(0);
    const first = pages[0];
    if (!first) throw new Error('no page');
    await first.reload();
    const now = await first.getByRole('region', { name: 'Workspace ops' }).getByText(/^Now: /).textContent();
    expect(['Now: Author only', 'Now: Whole organization']).toContain(now);
    await expectAccessible(first);
    await expectNoSidewaysScroll(first);
    await org.owner.client.visibility.set.mutate({ accountId: org.accountId, projectId: org.projectId, workspaceId: await opsId(), rule: null });
    for (const page of pages) await page.context().close();
  });

  it('sends an ended session to sign-in with a word, and a removed member to their own account', async () => {
    const person = await organizationWith(f, `Leaving-${viewport.name}`, [{ name: `lea-${viewport.name}`, role: 'member' }]);
    const lea = person.members[`lea-${viewport.name}`];
    if (!lea) throw new Error('member missing');
    const page = await signedInPage(lea, viewport);
    await page.goto(`${f.url}/a/${person.accountId}/keys`);
    await page.getByRole('heading', { name: 'Keys' }).waitFor();
    // The page's own reads answer first: one that answered after the removal would already move
    // Lea to her own account (rightly), and the click below would then leave that page.
    await page.waitForLoadState('networkidle');
    await person.owner.client.members.remove.mutate({ accountId: person.accountId, userId: lea.userId });
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByText('this is your own account').waitFor();
    await poll(() => new URL(page.url()).pathname).toBe(`/a/${lea.personalAccountId}/projects`);
    await expectAccessible(page);

    await page.context().clearCookies();
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByText('Your session ended. Sign in again to continue where you were.').waitFor();
    await poll(() => new URL(page.url()).pathname).toBe('/signin');
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.context().close();
  });

  it('lets an admin resolve a conflict by keeping one version, asking first', async () => {
    const factKey = `retention-${viewport.name}`;
    const mcp = await connectMcp(f.mcp.url, ownerKey);
    const kept = await mcp.ok<{ id: string }>('remember', { workspace: 'decisions', content: 'Logs are kept for 30 days', fact_key: factKey });
    const dropped = await mcp.ok<{ id: string }>('remember', { workspace: 'decisions', content: 'Logs are kept for 90 days', fact_key: factKey });
    await mcp.close();
    const page = await signedInPage(org.owner, viewport);
    await page.goto(`${f.url}/a/${org.accountId}/records/${dropped.id}?project=${org.projectId}`);
    const conflict = page.getByRole('group', { name: `Conflict with record ${kept.id}` });
    await conflict.getByText('Logs are kept for 30 days').waitFor();
    // The second card is the other version: keep it, forget this one.
    await conflict.getByRole('button', { name: 'Keep this one' }).nth(1).click();
    const ask = page.getByRole('dialog', { name: 'Keep this version and forget the other?' });
    await ask.locator('blockquote').first().getByText('Logs are kept for 30 days').waitFor();
    await ask.locator('blockquote').nth(1).getByText('Logs are kept for 90 days').waitFor();
    await expectAccessible(page);
    await ask.getByRole('button', { name: 'Forget the other' }).click();
    await page.getByRole('status').filter({ hasText: 'Conflict resolved: the other version was forgotten.' }).waitFor();
    // The forgotten version's page gives way to the kept one's.
    await poll(() => new URL(page.url()).pathname).toBe(`/a/${org.accountId}/records/${kept.id}`);
    await page.getByText('Logs are kept for 30 days').waitFor();
    expect(await conflict.count()).toBe(0);
    await expectNoSidewaysScroll(page);
    const after = await org.owner.client.workspaces.record.query({ accountId: org.accountId, projectId: org.projectId, id: kept.id });
    expect(after.conflictsWith).toEqual([]);
    await page.context().close();
  });
});

async function opsId(): Promise<string> {
  const rules = await org.owner.client.visibility.get.query({ accountId: org.accountId, projectId: org.projectId });
  return rules.workspaces.find((space) => space.name === 'ops')?.workspaceId ?? '';
}
