import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, screenshots, useBrowser } from './browser-fixture.ts';
import { PASSWORD, uniqueEmail, useDashboard } from './fixtures.ts';
import { totpCode } from './totp.ts';

const f = useDashboard();
const chromium = useBrowser();
const viewports = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).first().click();
  await page.getByRole('heading', { name: 'Sign in to MMW' }).waitFor();
}

async function passwordStep(page: Page, email: string): Promise<void> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
}

async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel('Code', { exact: true }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

describe.each(viewports)('two-factor sign-in in the web UI at $width px', (viewport) => {
  it('enrols with the QR key, signs in with a code, and takes a recovery code once, accessibly', async () => {
    const context = await chromium.browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const email = uniqueEmail('tess');
    await page.goto(`${f.url}/signup`);
    await page.getByLabel('Name').fill('Tess Two');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop')
      await page.screenshot({ path: `${screenshots}two-factor-enrol.png`, fullPage: true, mask: [page.getByTestId('totp-secret'), page.getByRole('img')] });
    await page.getByLabel('Authenticator code').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm' }).click();
    const codes = ((await page.getByTestId('recovery-codes').textContent()) ?? '').trim().split('\n');
    expect(codes).toHaveLength(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByText('recovery code(s) left').waitFor();

    await signOut(page);
    await passwordStep(page, email);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    if (viewport.name === 'desktop') await page.screenshot({ path: `${screenshots}two-factor-sign-in.png`, fullPage: true });
    // The next step's code: the one confirming the enrolment is spent for its window.
    await enterCode(page, totpCode(secret, 1));
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    const recovery = codes[0] ?? '';
    await signOut(page);
    await passwordStep(page, email);
    await enterCode(page, recovery);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();

    await signOut(page);
    await passwordStep(page, email);
    await enterCode(page, recovery);
    await page.getByRole('alert').filter({ hasText: 'the code is not correct' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Projects' }).count()).toBe(0);
    await expectAccessible(page);
    await context.close();
  });
});
