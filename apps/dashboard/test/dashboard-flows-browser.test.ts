import { connectMcp } from '@mmw/test-support';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, poll, screenshots, useBrowser } from './browser-fixture.ts';
import { organizationWith, PASSWORD, signUp, uniqueEmail, useDashboard } from './fixtures.ts';

const f = useDashboard();
const chromium = useBrowser();

const widths = [1440, 390] as const;

async function openPage(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.url });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${f.url}/signin`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
}

/** A dialog fits the window, whatever the page behind it does. */
async function expectFits(page: Page, name: string): Promise<void> {
  const box = await page.getByRole('dialog', { name }).boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box !== null && box.x >= 0 && box.x + box.width <= width + 1).toBe(true);
}

/** Nothing of the part under test is wider than the window: on a phone it scrolls down, never sideways. */
async function expectWithinWindow(page: Page, locator: ReturnType<Page['locator']>): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box !== null && box.x >= 0 && Math.round(box.x + box.width) <= width).toBe(true);
}

describe.each(widths)('the dashboard at %i px', (width) => {
  it('first run: the endpoint, a key, each assistant\'s setup, and the live first-memory check', async () => {
    const page = await openPage(chromium.browser, width);
    await page.goto(`${f.url}/signin`);
    await page.getByText('MMW is long-term memory for your AI assistants').waitFor();
    const email = uniqueEmail('first');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Name').fill('First Runner');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    const panel = page.getByRole('region', { name: 'Connect your assistant' });
    await panel.waitFor();
    await expect.poll(async () => (await panel.getByTestId('mcp-url').textContent())?.trim()).toBe(f.mcp.url);
    await panel.getByRole('button', { name: 'Issue a key' }).click();
    const key = ((await panel.getByTestId('connect-key').textContent()) ?? '').trim();
    expect(key).toMatch(/^mmw_/);
    expect(await panel.getByRole('tabpanel').textContent()).toContain(`claude mcp add --transport http mmw ${f.mcp.url} --header "Authorization: Bearer ${key}"`);
    await panel.getByRole('tab', { name: 'Cursor' }).click();
    expect(JSON.parse((await panel.getByRole('tabpanel').locator('pre').textContent()) ?? '')).toEqual({
      mcpServers: { mmw: { url: f.mcp.url, headers: { Authorization: `Bearer ${key}` } } },
    });
    await panel.getByRole('tab', { name: 'Cursor' }).press('ArrowRight');
    expect(await panel.getByRole('tab', { name: 'Codex' }).getAttribute('aria-selected')).toBe('true');
    expect(await panel.getByRole('tabpanel').textContent()).toContain(`http_headers = { "Authorization" = "Bearer ${key}" }`);
    await panel.getByRole('tab', { name: 'Claude.ai' }).click();
    await panel.getByText('Add custom connector').waitFor();
    await panel.getByRole('tab', { name: 'ChatGPT' }).click();
    await panel.getByRole('tabpanel').getByRole('button', { name: 'Copy' }).click();
    await panel.getByRole('tabpanel').getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(f.mcp.url);
    await panel.getByText('Waiting for the first memory').waitFor();
    await expectWithinWindow(page, panel);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${screenshots}first-run-${width}.png`, fullPage: true, mask: [panel.getByTestId('connect-key')] });

    const mcp = await connectMcp(f.mcp.url, key);
    await mcp.ok('remember', { content: 'the first memory from the browser test' });
    await mcp.close();
    await panel.getByText('First memory received').waitFor({ timeout: 10_000 });
    await page.context().close();
  });

  it('forgot password: a mailed link sets a new password and ends the old sessions', async () => {
    const person = await signUp(f, `forgot${width}`);
    const page = await openPage(chromium.browser, width);
    await page.goto(`${f.url}/signin`);
    await page.getByLabel('Email').fill(person.email);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Reset your password' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(person.email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText(`If an account uses ${person.email}`).waitFor();
    const link = f.mail.lastLink(person.email, '/reset-password/');
    await page.goto(link);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').filter({ hasText: 'the new password must differ from the current one' }).waitFor();
    await expectAccessible(page, '/reset-password');
    await expectNoSidewaysScroll(page);
    await page.getByLabel('New password').fill('a fresh and long passphrase');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('every session of').waitFor();
    expect(await person.client.auth.me.query()).toBeNull();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await signIn(page, person.email, 'a fresh and long passphrase');
    await page.context().close();
  });

  it('asks before revoking a key, deactivating a project, making an owner and signing out everywhere, then says what happened', async () => {
    const org = await organizationWith(f, `Careful${width}`, [{ name: `colleague${width}`, role: 'member' }]);
    const colleague = org.members[`colleague${width}`];
    if (!colleague) throw new Error('colleague missing');
    await org.owner.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'ci-runner' });
    await org.owner.client.projects.create.mutate({ accountId: org.accountId, name: 'sandbox' });
    const page = await openPage(chromium.browser, width);
    await signIn(page, org.owner.email);

    await page.goto(`${f.url}/a/${org.accountId}/keys`);
    await page.getByRole('button', { name: 'Revoke key ci-runner' }).click();
    const revokeDialog = page.getByRole('dialog', { name: 'Revoke key ci-runner?' });
    expect(await revokeDialog.getByRole('button', { name: 'Revoke key' }).isDisabled()).toBe(true);
    await revokeDialog.getByLabel('Type ci-runner to confirm').fill('ci-runner');
    await expectFits(page, 'Revoke key ci-runner?');
    await expectAccessible(page);
    await page.screenshot({ path: `${screenshots}confirm-revoke-${width}.png` });
    await revokeDialog.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByRole('status').filter({ hasText: 'Key ci-runner' }).filter({ hasText: 'is revoked' }).waitFor();

    await page.goto(`${f.url}/a/${org.accountId}/projects`);
    const sandbox = page.getByRole('row').filter({ hasText: 'sandbox' });
    await sandbox.getByRole('button', { name: 'Deactivate' }).click();
    const deactivate = page.getByRole('dialog', { name: 'Deactivate project sandbox?' });
    await deactivate.getByRole('button', { name: 'Cancel' }).click();
    expect(await sandbox.getByText('active', { exact: true }).count()).toBe(1);
    await sandbox.getByRole('button', { name: 'Deactivate' }).click();
    await deactivate.getByRole('button', { name: 'Deactivate project' }).click();
    await page.getByRole('status').filter({ hasText: 'sandbox is deactivated' }).waitFor();

    await page.goto(`${f.url}/a/${org.accountId}/members`);
    await page.getByLabel(`Role of ${colleague.email}`).selectOption('owner');
    const owner = page.getByRole('dialog', { name: `Make ${colleague.email} an owner?` });
    await owner.getByText('Only another owner can take it back').waitFor();
    expect(await owner.getByRole('button', { name: 'Make owner' }).isDisabled()).toBe(true);
    await expectFits(page, `Make ${colleague.email} an owner?`);
    await expectAccessible(page);
    await owner.getByLabel(`Type ${colleague.email} to confirm`).fill(colleague.email);
    await owner.getByRole('button', { name: 'Make owner' }).click();
    await page.getByRole('status').filter({ hasText: `${colleague.email} is now owner.` }).waitFor();
    const members = await org.owner.client.members.list.query({ accountId: org.accountId });
    expect(members.find((member) => member.userId === colleague.userId)?.role).toBe('owner');

    await page.goto(`${f.url}/settings`);
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const everywhere = page.getByRole('dialog', { name: 'Sign out everywhere?' });
    await everywhere.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('status').filter({ hasText: 'You are signed out everywhere' }).waitFor();
    expect(await org.owner.client.auth.me.query()).toBeNull();
    await page.context().close();
  });

  it('handover asks first, is done once, and the page says who received the knowledge', async () => {
    const org = await organizationWith(f, `Handing${width}`, [{ name: `leaver${width}`, role: 'member' }]);
    const leaver = org.members[`leaver${width}`];
    if (!leaver) throw new Error('leaver missing');
    await org.owner.client.members.remove.mutate({ accountId: org.accountId, userId: leaver.userId });
    const page = await openPage(chromium.browser, width);
    await signIn(page, org.owner.email);
    await page.goto(`${f.url}/a/${org.accountId}/handover`);
    await page.getByRole('button', { name: 'Hand over' }).click();
    const dialog = page.getByRole('dialog', { name: `Hand ${leaver.email}'s knowledge over to ${org.owner.email}?` });
    await dialog.getByText('done once and cannot be undone').waitFor();
    await expectFits(page, `Hand ${leaver.email}'s knowledge over to ${org.owner.email}?`);
    await expectAccessible(page);
    await dialog.getByLabel(`Type ${org.owner.email} to confirm`).fill(org.owner.email);
    await dialog.getByRole('button', { name: 'Hand over' }).click();
    await page.getByRole('status').filter({ hasText: `${leaver.email}'s knowledge now reads as ${org.owner.email}'s.` }).waitFor();
    await page.getByText(`handed over to ${org.owner.email}`).waitFor();
    expect(await page.getByRole('button', { name: 'Hand over' }).count()).toBe(0);
    await page.context().close();
  });

  it('invitations: copy, resend, the link keeps the invited email through sign-in, and a wrong account is told so', async () => {
    const org = await organizationWith(f, `Inviting${width}`);
    const invitee = await signUp(f, `invitee${width}`);
    const page = await openPage(chromium.browser, width);
    await signIn(page, org.owner.email);
    await page.goto(`${f.url}/a/${org.accountId}/members`);
    await page.getByLabel('Invite by email').fill(invitee.email);
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByRole('status').filter({ hasText: `Invitation created for ${invitee.email}` }).waitFor();
    const first = ((await page.getByTestId('invite-link').textContent()) ?? '').trim();
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(first);
    await page.getByLabel('Invite by email').fill(invitee.email);
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'already has an open invitation' }).waitFor();
    await page.getByLabel('Invite by email').fill(org.owner.email);
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await page.getByRole('alert').filter({ hasText: 'you cannot invite yourself' }).waitFor();
    await page.getByRole('button', { name: `Resend the invitation for ${invitee.email}` }).click();
    await page.getByRole('status').filter({ hasText: `A new link was mailed to ${invitee.email}` }).waitFor();
    const link = ((await page.getByTestId('invite-link').textContent()) ?? '').trim();
    expect(link).not.toBe(first);
    expect(await page.getByRole('row').filter({ hasText: invitee.email }).count()).toBe(1);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${screenshots}invitations-${width}.png`, fullPage: true, mask: [page.getByTestId('invite-link')] });

    // Signed in as the owner, the link shows the wrong-account screen before anything is accepted.
    await page.goto(link);
    await page.getByTestId('wrong-account').getByText(`You are signed in as ${org.owner.email}`).waitFor();
    expect(await page.getByRole('button', { name: 'Accept invitation' }).count()).toBe(0);
    await expectAccessible(page, '/invite (wrong account)');
    await expectNoSidewaysScroll(page);
    await page.getByRole('button', { name: `Sign out and continue as ${invitee.email}` }).click();
    await page.getByRole('heading', { name: 'Sign in to MMW' }).waitFor();
    await page.getByTestId('invitation-note').getByText(`Inviting${width}`).waitFor();
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(invitee.email);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect.poll(() => page.getByLabel('Email').inputValue()).toBe(invitee.email);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Invitation' }).waitFor();
    await expectAccessible(page, '/invite');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await page.getByRole('heading', { name: 'Projects', exact: true }).waitFor();
    expect((await invitee.client.accounts.list.query()).map((account) => account.id)).toContain(org.accountId);
    await page.context().close();
  });

  it('organizations: the name in titles, rename by the owner, the last one opened remembered, deletion says what goes', async () => {
    const org = await organizationWith(f, `Named${width}`);
    const other = await org.owner.client.accounts.createOrganization.mutate({ name: `Second${width}` });
    const page = await openPage(chromium.browser, width);
    await signIn(page, org.owner.email);
    await page.goto(`${f.url}/a/${org.accountId}/account`);
    await expect.poll(() => page.title()).toBe(`Account · Named${width} · MMW`);
    await page.getByLabel('Name', { exact: true }).fill(`Second${width}`);
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('alert').filter({ hasText: `you already have an organization named "Second${width}"` }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill(`Renamed${width}`);
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('status').filter({ hasText: `Renamed to Renamed${width}.` }).waitFor();
    await expect.poll(() => page.title()).toBe(`Account · Renamed${width} · MMW`);
    await page.getByText('members keep their own MMW accounts').waitFor();
    await expectWithinWindow(page, page.locator('form').filter({ hasText: 'Organization name' }));
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);

    const extra = await org.owner.client.projects.create.mutate({ accountId: org.accountId, name: 'second-project' });
    await page.goto(`${f.url}/a/${org.accountId}/workspaces?project=${extra.id}`);
    await page.getByText('Project second-project.').waitFor();
    await page.goto(`${f.url}/a/${org.accountId}/workspaces`);
    await page.getByText('Project second-project.').waitFor();
    expect(await page.getByLabel('Project').inputValue()).toBe(extra.id);

    await page.goto(`${f.url}/a/${other.id}/keys`);
    await expect.poll(() => page.title()).toBe(`Keys · Second${width} · MMW`);
    await page.goto(`${f.url}/`);
    await page.waitForURL(`**/a/${other.id}/projects`);
    await page.context().close();
  });

  it('removing a member and leaving ask first and say what happened; deleting an organization states what goes, then that it is gone', async () => {
    const org = await organizationWith(f, `Parting${width}`, [
      { name: `removed${width}`, role: 'member' },
      { name: `leaving${width}`, role: 'admin' },
    ]);
    const removed = org.members[`removed${width}`];
    const leaving = org.members[`leaving${width}`];
    if (!removed || !leaving) throw new Error('members missing');

    const page = await openPage(chromium.browser, width);
    await signIn(page, org.owner.email);
    await page.goto(`${f.url}/a/${org.accountId}/members`);
    const row = page.getByRole('row').filter({ hasText: removed.email });
    await row.getByRole('button', { name: 'Remove' }).click();
    const remove = page.getByRole('dialog', { name: `Remove ${removed.email}?` });
    await remove.getByText('Their keys stop working at once').waitFor();
    await expectFits(page, `Remove ${removed.email}?`);
    await expectAccessible(page);
    await remove.getByRole('button', { name: 'Cancel' }).click();
    await remove.waitFor({ state: 'detached' });
    expect((await org.owner.client.members.list.query({ accountId: org.accountId })).find((m) => m.userId === removed.userId)?.removedAt).toBeNull();
    await row.getByRole('button', { name: 'Remove' }).click();
    await remove.getByRole('button', { name: 'Remove member' }).click();
    await page.getByRole('status').filter({ hasText: `${removed.email} was removed; their keys stopped working.` }).waitFor();
    expect((await removed.client.accounts.list.query()).map((account) => account.id)).not.toContain(org.accountId);

    // The admin leaves: asked first, then told where they are and what happened.
    const other = await openPage(chromium.browser, width);
    await signIn(other, leaving.email);
    await other.goto(`${f.url}/a/${org.accountId}/members`);
    await other.getByRole('row').filter({ hasText: leaving.email }).getByRole('button', { name: 'Leave' }).click();
    const leave = other.getByRole('dialog', { name: 'Leave this organization?' });
    await leave.getByText('You lose access at once').waitFor();
    await expectFits(other, 'Leave this organization?');
    await expectAccessible(other);
    await leave.getByRole('button', { name: 'Leave organization' }).click();
    await other.getByRole('status').filter({ hasText: 'You left the organization' }).waitFor();
    await poll(() => new URL(other.url()).pathname).toBe(`/a/${leaving.personalAccountId}/projects`);
    await expectAccessible(other);
    expect((await leaving.client.accounts.list.query()).map((account) => account.id)).toEqual([leaving.personalAccountId]);
    await other.context().close();

    // Deletion: what goes is said first; a wrong name is refused in plain words; then it is gone.
    await page.goto(`${f.url}/a/${org.accountId}/account`);
    await page.getByText('Every project, workspace, record, key, member, invitation and audit event of this account is removed for good.').waitFor();
    await page.getByLabel("Type the account's name to confirm").fill(`parting${width}?`);
    await page.getByRole('button', { name: 'Delete account for good' }).click();
    await page.getByRole('alert').filter({ hasText: "type the account's name to confirm the deletion" }).waitFor();
    await expectAccessible(page);
    expect((await org.owner.client.accounts.list.query()).map((account) => account.id)).toContain(org.accountId);
    await page.getByLabel("Type the account's name to confirm").fill(`Parting${width}`);
    await page.getByRole('button', { name: 'Delete account for good' }).click();
    await page.getByRole('status').filter({ hasText: 'The organization was deleted for good' }).waitFor();
    await poll(() => new URL(page.url()).pathname).toBe(`/a/${org.owner.personalAccountId}/projects`);
    expect((await org.owner.client.accounts.list.query()).map((account) => account.id)).toEqual([org.owner.personalAccountId]);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await page.context().close();
  });
});
