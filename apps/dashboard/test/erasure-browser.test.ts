import { connectMcp } from '@mmw/test-support';
import { describe, expect, it } from 'vitest';
import { useBrowser } from './browser-fixture.ts';
import { PASSWORD, signUp, useDashboard } from './fixtures.ts';

const f = useDashboard();
const chromium = useBrowser();

describe('purging a record in the web UI', () => {
  it('asks for the id to be typed, then the record is gone', async () => {
    const owner = await signUp(f, 'pia');
    const [project] = await owner.client.projects.list.query({ accountId: owner.personalAccountId });
    const { key } = await owner.client.keys.issue.mutate({ accountId: owner.personalAccountId, projectId: project?.id ?? '', name: 'k' });
    const mcp = await connectMcp(f.mcp.url, key);
    const rec = await mcp.ok<{ id: string }>('remember', { content: 'the home address of the courier is 9 Birch Lane' });
    await mcp.close();

    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 820 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${f.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.goto(`${f.url}/a/${owner.personalAccountId}/records?workspace=default`);
    const card = page.getByRole('article', { name: `Record ${rec.id}` });
    await card.getByRole('button', { name: 'Purge' }).click();
    const dialog = page.getByRole('dialog', { name: 'Purge this record for good?' });
    const confirm = dialog.getByRole('button', { name: 'Purge' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Record id to confirm').fill(rec.id);
    await confirm.click();
    await card.waitFor({ state: 'detached' });
    expect(await f.db.query('select 1 from records where id = $1', [rec.id])).toHaveLength(0);
    await context.close();
  });
});
