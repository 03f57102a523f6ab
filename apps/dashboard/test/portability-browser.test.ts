import { readFile } from 'node:fs/promises';
import { connectMcp } from '@mmw/test-support';
import { describe, expect, it } from 'vitest';
import { screenshots, useBrowser } from './browser-fixture.ts';
import { organizationWith, PASSWORD, useDashboard } from './fixtures.ts';

const f = useDashboard();
const chromium = useBrowser();

describe('the Export and import page', () => {
  it('downloads an export, and uploads it into another organization with a report', async () => {
    const org = await organizationWith(f, 'Carry');
    const { accountId, projectId, owner } = org;
    const { key } = await owner.client.keys.issue.mutate({ accountId, projectId, name: 'k' });
    const mcp = await connectMcp(f.mcp.url, key);
    await mcp.ok('remember', { content: 'the nightly backup runs at 02:00 UTC', workspace: 'ops' });
    await mcp.ok('remember', { content: 'backups are kept for 30 days', workspace: 'ops', fact_key: 'backup-retention' });
    await mcp.close();
    const target = await owner.client.accounts.createOrganization.mutate({ name: 'Carried' });

    const context = await chromium.browser.newContext({ viewport: { width: 1280, height: 820 }, acceptDownloads: true });
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

    await page.goto(`${f.url}/a/${target.id}/portability`);
    await page.getByLabel('Export file (.jsonl)').setInputFiles(path);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 2 records' }).waitFor();
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Imported 0 records, 0 tombstones and 0 relations; 2 already present' }).waitFor();
    const copied = await f.db.query<{ content: string }>('select content from records where account_id = $1 order by content', [target.id]);
    expect(copied.map((row) => row.content)).toEqual(['backups are kept for 30 days', 'the nightly backup runs at 02:00 UTC']);

    await page.getByLabel('Export file (.jsonl)').setInputFiles({ name: 'notes.jsonl', mimeType: 'text/plain', buffer: Buffer.from('hello\n') });
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'line 1 is not JSON' }).waitFor();
    await page.screenshot({ path: `${screenshots}export-import.png`, fullPage: true });

    // On a phone, both forms fit the screen's width.
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ['Export', 'Import']) {
      const form = page.getByRole('form', { name });
      const box = await form.boundingBox();
      expect(box === null ? 'hidden' : box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await context.close();
  });
});
