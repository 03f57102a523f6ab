import { describe, expect, it } from 'vitest';
import { expectAccessible, expectNoSidewaysScroll, screenshots, useBrowser } from './browser-fixture.ts';
import { connectMcp } from '@mmw/test-support';
import { issueKey, ownerWithOrganization, subscriptionOf, useBilling } from './billing-fixtures.ts';

const f = useBilling();
const chromium = useBrowser();

describe.each([1440, 390])('the Billing page at %i px, as an owner uses it', (width) => {
  it('shows usage bars against the plan, and walks plan choice through Checkout back to an active plan, accessibly', async () => {
    const owner = await ownerWithOrganization(f, `Acme Billing ${width}`);
    const agent = await connectMcp(f.mcp.url, await issueKey(owner.client, owner.accountId));
    for (const content of ['Deploys run from the release branch', 'The on-call rota is in the wiki', 'Staging uses the app-staging unit']) {
      await agent.ok('remember', { content, workspace: 'ops' });
    }
    await agent.close();
    await expect
      .poll(async () => (await owner.client.billing.overview.query({ accountId: owner.accountId })).usage.callsThisMonth.used)
      .toBe(3);
    // The Stripe stub's Checkout page delivers its signed events to the dashboard, as Stripe would.
    f.stub.webhookUrl = f.webhookUrl;

    const context = await chromium.browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // The docs keep the desktop's pictures; the phone's walk is checked, not photographed.
    const shot = (name: string, fullPage = true) => (width === 1440 ? page.screenshot({ path: `${screenshots}${name}.png`, fullPage }) : undefined);
    await page.goto(`${f.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await page.goto(`${f.url}/a/${owner.accountId}/projects`);
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByRole('heading', { name: 'Billing', level: 1 }).waitFor();

    // The Free trial, with its usage against the plan.
    await page.getByRole('heading', { level: 2, name: /^Free trial/ }).waitFor();
    const records = page.getByRole('progressbar', { name: 'Records' });
    expect(await records.getAttribute('aria-valuenow')).toBe('3');
    expect(await records.getAttribute('aria-valuemax')).toBe('1000');
    expect(await page.getByTestId('usage-records').textContent()).toContain('3 of 1,000');
    const calls = page.getByRole('progressbar', { name: 'Calls this month' });
    expect(await calls.getAttribute('aria-valuenow')).toBe('3');
    expect(await page.getByTestId('usage-members').textContent()).toContain('1 of 3');
    const fill = await page.locator('[data-testid=usage-records] .usage-fill').getAttribute('style');
    expect(fill).toMatch(/width: (?!0%)[\d.]+%/);
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await shot('billing');

    // Plan choice: to Stripe's Checkout (the stub's page), and back.
    await page.getByRole('button', { name: 'Choose Pro' }).click();
    await page.waitForURL(new RegExp(`^${f.stub.url}/checkout/cs_test_`));
    await page.getByRole('heading', { name: 'Subscribe to MMW Pro' }).waitFor();
    await shot('billing-checkout-stub', false);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(`${f.url}/a/${owner.accountId}/billing?checkout=success`);
    await page.getByText('Thank you: the Pro plan is active.').waitFor();
    await page.getByRole('heading', { level: 2, name: /^Pro/ }).waitFor();
    expect(await page.getByTestId('usage-records').textContent()).toContain('3 of 50,000');
    await page.getByRole('button', { name: 'Manage billing' }).waitFor();
    await expectAccessible(page);
    await expectNoSidewaysScroll(page);
    await shot('billing-active');
    expect((await subscriptionOf(f, owner.accountId)).status).toBe('active');

    // Back from a canceled Checkout, nothing changes and the page says so.
    await page.goto(`${f.url}/a/${owner.accountId}/billing?checkout=canceled`);
    await page.getByText('Checkout was canceled; nothing was charged.').waitFor();
    await expectAccessible(page);
    await context.close();
  });
});
