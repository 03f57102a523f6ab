import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

const chromiumPath = '/usr/bin/chromium';
/** Where the browser tests save the main pages, for the docs. */
export const screenshots = fileURLToPath(new URL('../../../docs/screenshots/', import.meta.url));

/** Debian's Chromium, headless, for one test file. */
export function useBrowser(): { browser: Browser } {
  const holder = {} as { browser: Browser };
  beforeAll(async () => {
    if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: apt-get install chromium (.ci/run does)`);
    mkdirSync(screenshots, { recursive: true });
    holder.browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await holder.browser.close();
  });
  return holder;
}
