import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { updateScreenshots } from '@mmw/test-support';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';

const chromiumPath = '/usr/bin/chromium';
/**
 * Where the browser tests save the main pages: the docs' folder with MMW_UPDATE_SCREENSHOTS=1, a temp
 * folder otherwise, so a test run leaves the checkout as it found it.
 */
export const screenshots = updateScreenshots
  ? fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url))
  : join(tmpdir(), 'mmw-screenshots/');

/** Debian's Chromium, headless, for one test file. */
export function useBrowser(): { browser: Browser } {
  const holder = {} as { browser: Browser };
  let launched: Browser | undefined;
  beforeAll(async () => {
    if (!existsSync(chromiumPath))
      throw new Error(`${chromiumPath} is missing: apt-get install chromium (.ci/run does)`);
    mkdirSync(screenshots, { recursive: true });
    launched = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    holder.browser = launched;
  });
  afterAll(async () => {
    await launched?.close();
  });
  return holder;
}

/**
 * axe-core's check of the page as it is now (WCAG 2.1 A and AA rules, colour contrast included):
 * no serious or critical violation. Each one is listed with its rule and the elements it names.
 */
export async function expectAccessible(page: Page, what = new URL(page.url()).pathname): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const grave = result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => `${node.target.join(' ')} (${node.failureSummary ?? ''})`).join('; ')}`);
  expect(grave, `axe on ${what}`).toEqual([]);
}

/** Nothing wider than the screen: the page does not scroll sideways. */
export async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  expect(overflow, `sideways overflow on ${new URL(page.url()).pathname}`).toBe(0);
}

/** expect.poll with room for a busy machine: the pages answer within seconds, not within poll's default second. */
export const poll = <T,>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
