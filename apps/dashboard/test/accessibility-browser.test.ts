import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, useBrowser } from './browser-fixture.ts';
import { organizationWith, PASSWORD, useDashboard, type Organization } from './fixtures.ts';

// Every page of the dashboard, signed out and signed in as an owner, at a desktop's width and a
// phone's: no serious or critical axe violation, and nothing wider than the screen.
const f = useDashboard();
const chromium = useBrowser();
const viewports = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

let org: Organization;
beforeAll(async () => {
  org = await organizationWith(f, 'Acme', []);
});

async function check(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${f.url}${path}`);
  try {
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  } catch (error) {
    // What the page showed instead, to read beside the error.
    const file = join(tmpdir(), `mmw-a11y-${path.split('?')[0]?.replaceAll('/', '_') ?? ''}-${page.viewportSize()?.width ?? 0}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.error(`screenshot of ${path}: ${file}`);
    throw error;
  }
  await expectAccessible(page, path);
  await expectNoSidewaysScroll(page);
}

describe.each(viewports)('every page at $width px', (viewport) => {
  it('is accessible and fits the screen, signed out and signed in', { timeout: 240_000 }, async () => {
    const context = await chromium.browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    try {
      await check(page, '/signin', 'Sign in to MMW');
      await check(page, '/signup', 'Create your MMW account');
      await check(page, '/forgot-password', 'Reset your password');

      await page.goto(`${f.url}/signin`);
      await page.getByLabel('Email').fill(org.owner.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();

      await check(page, '/settings', 'Settings');
      const pages: [string, string | RegExp][] = [
        ['projects', 'Projects'],
        ['keys', 'Keys'],
        ['workspaces', 'Workspaces'],
        ['records', /^Records in/],
        ['sessions', 'Sessions'],
        ['members', 'Members'],
        ['visibility', 'Visibility'],
        ['handover', 'Handover'],
        ['audit', 'Audit log'],
        ['billing', 'Billing'],
        ['account', 'Account'],
        ['portability', 'Export and import'],
      ];
      for (const [name, heading] of pages) await check(page, `/a/${org.accountId}/${name}?project=${org.projectId}`, heading);
    } finally {
      await context.close();
    }
  });
});
