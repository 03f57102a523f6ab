import { describe, expect, it } from 'vitest';
import { allowanceResetsOn } from '@mmw/core';
import { connectMcp } from '@mmw/test-support';
import { expectAccessible, expectNoSidewaysScroll, screenshots, useBrowser } from './browser-fixture.ts';
import { issueKey, ownerWithOrganization, useBilling } from './billing-fixtures.ts';

// Every plan includes 4 calls a month here, so the page can show a spent allowance.
const f = useBilling({ env: () => ({ MMW_CALLS_PER_MONTH: '4' }) });
const chromium = useBrowser();

const resetDay = () =>
  allowanceResetsOn(new Date()).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

describe('the Billing page: prices, the call allowance and the rates that apply', () => {
  it('shows them at 1440 px and at 390 px, nothing cut off, accessibly', async () => {
    const owner = await ownerWithOrganization(f, 'Rates Co');
    const agent = await connectMcp(f.mcp.url, await issueKey(owner.client, owner.accountId));
    for (const content of ['Deploys run from the release branch', 'The on-call rota is in the wiki']) {
      await agent.ok('remember', { content });
    }
    await agent.ok('search', { query: 'deploy' });
    await agent.ok('search', { query: 'rota' });
    await expect
      .poll(async () => (await owner.client.billing.overview.query({ accountId: owner.accountId })).usage.callsThisMonth.used)
      .toBe(4);
    // The allowance is spent: the agent is told so, and so is the page.
    expect((await agent.call('remember', { content: 'One more' })).text).toMatch(/^\[MMW Notice\]: .*4 tool calls a month/);
    await agent.close();

    for (const [width, name] of [
      [1440, 'billing-rates'],
      [390, 'billing-rates-phone'],
    ] as const) {
      const context = await chromium.browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${f.url}/signin`);
      await page.getByLabel('Email').fill(owner.email);
      await page.getByLabel('Password').fill('correct horse battery staple');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      await page.goto(`${f.url}/a/${owner.accountId}/billing`);
      await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();

      // Prices, as Stripe has them.
      expect(await page.getByTestId('price-pro').textContent()).toBe('$12 a month');
      expect(await page.getByTestId('price-team').textContent()).toBe('$49 a month');
      expect(await page.getByTestId('price-trial').textContent()).toBe('Free');

      // The month's calls as a usage bar, full, with the day it resets, and the notice.
      const calls = page.getByRole('progressbar', { name: 'Calls this month' });
      expect(await calls.getAttribute('aria-valuenow')).toBe('4');
      expect(await calls.getAttribute('aria-valuemax')).toBe('4');
      expect(await calls.getAttribute('class')).toContain('full');
      expect(await page.getByTestId('usage-calls-this-month').textContent()).toContain(`4 of 4 included, resets on ${resetDay()}`);
      expect(await page.getByRole('alert').textContent()).toMatch(/^\[MMW Notice\]: this account has used the 4 tool calls a month of its Free trial plan/);

      // The call rates that apply to this account's plan.
      const rates = page.getByRole('definition');
      expect(await rates.allTextContents()).toEqual([
        '60 calls a minute',
        '300 calls a minute, all its keys together',
        `4 calls included; once they are used, remember and forget wait until ${resetDay()}, search and validate_memory keep working`,
      ]);
      expect(await page.getByTestId('trial-rule').textContent()).toContain('One trial per person, not one per organization');
      // The Team trial offered is what is left of the owner's trial.
      await page.getByRole('button', { name: 'Start 14-day Team trial' }).waitFor();

      // Nothing wider than the window, and the spent allowance's notice and full bar read accessibly.
      await expectNoSidewaysScroll(page);
      await expectAccessible(page);
      for (const testId of ['price-pro', 'price-team', 'usage-calls-this-month']) {
        const box = await page.getByTestId(testId).boundingBox();
        expect(box).not.toBeNull();
        expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(width);
      }
      await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true });
      await context.close();
    }
  });
});
