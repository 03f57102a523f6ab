import { readFile } from 'node:fs/promises';
import { connectMcp } from '@mmw/test-support';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, screenshots, useBrowser } from './browser-fixture.ts';
import { organizationWith, PASSWORD, useDashboard } from './fixtures.ts';

const f = useDashboard();
const chromium = useBrowser();

describe.each([1440, 390])('the Export and import page at %i px', (width) => {
  it('downloads an export, and uploads it into another organization with a report, accessibly', async () => {
    const org = await organizationWith(f, `Carry${width}`);
    const { accountId, projectId, owner } = org;
    const { key } = await owner.client.keys.issue.mutate({ accountId, projectId, name: 'k' });
    const mcp = await connectMcp(f.mcp.url, key);
    await mcp.ok('remember', { content: 'the nightly backup runs at 02:00 UTC', workspace: 'ops' });
    await mcp.ok('remember', { content: 'backups are kept for 30 days', workspace: 'ops', fact_key: 'backup-retention' });
    await mcp.close();
    const target = await owner.client.accounts.createOrganization.mutate({ name: `Carried${width}` });

    const context = await chromium.browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${f.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    await page.goto(`${f.url}/a/${accountId}/portability`);
    await page.getByRole('heading', { name: 'Export and import' }).waitFor();
    await page.getByLabel('Workspace to export').fill('ops');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download export' }).click(),
    ]);
    const path = await download.path();
    const text = await readFile(path, 'utf8');
    expect(download.suggestedFilename()).toMatch(/^mmw-export-ops-\d{4}-\d{2}-\d{2}\.jsonl$/);
    expect(text).toContain('the nightly backup runs at 02:00 UTC');
    await page.getByRole('status').filter({ hasText: 'Exported 2 records, 0 tombstones' }).waitFor();
    await expectAccessible(page);

    await page.goto(`${f.url}/a/${target.id}/portability`);
    await page.getByLabel('Export file (.jsonl)').setInputFiles(path);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 records' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 0 records, 0 tombstones and 0 relations; 2 already present' }).waitFor();
    await expectAccessible(page);
    const copied = await f.db.query<{ content: string }>('select content from records where account_id = $1 order by content', [target.id]);
    expect(copied.map((row) => row.content)).toEqual(['backups are kept for 30 days', 'the nightly backup runs at 02:00 UTC']);

    await page.getByLabel('Export file (.jsonl)').setInputFiles({ name: 'notes.jsonl', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'line 1 is not JSON' }).waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    // Both forms fit the window, on a phone too.
    for (const name of ['Export', 'Import']) {
      const box = await page.getByRole('form', { name }).boundingBox();
      expect(box !== null && box.x >= 0 && box.x + box.width <= width).toBe(true);
    }
    if (width === 1440) await page.screenshot({ path: `${screenshots}export-import.png`, fullPage: true });
    await context.close();
  });
});
