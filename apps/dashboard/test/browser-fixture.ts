import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { updateScreenshots } from '@mmw/test-support';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

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
