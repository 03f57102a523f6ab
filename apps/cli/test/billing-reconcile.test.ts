import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  runScript,
  startStripeStub,
  type StripeStub,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';

let testDb: TestDatabase;
let stub: StripeStub;
let mcp: RunningMcp;
const mmw = (env: Record<string, string>, ...args: string[]) =>
  runScript('apps/cli/src/main.ts', args, { DATABASE_URL: testDb.url, ...env });

beforeAll(async () => {
  testDb = await createTestDatabase();
  stub = await startStripeStub();
  mcp = await startMcp(testDb.database, { env: stub.env });
});

afterAll(async () => {
  await mcp.close();
  await stub.close();
  await testDb.drop();
});

/** An account that went through Checkout (a Stripe customer and subscription) whose webhooks never came. */
async function paidWithoutWebhooks(account: string) {
  const issued = await mcp.key(account, 'main');
  const member = { accountId: issued.accountId, userId: issued.userId, role: 'owner' as const, accountKind: 'organization' as const };
  const { url } = await mcp.runtime.billing.startCheckout(member, { plan: 'team', origin: 'http://127.0.0.1' });
  stub.completeCheckout(url.split('/checkout/')[1] ?? '');
  return issued;
}

async function subscriptionOf(account: string) {
  const [row] = await testDb.query<{ status: string; plan: string }>(
    'select s.status, s.plan from subscriptions s join accounts a on a.id = s.account_id where a.slug = $1',
    [account],
  );
  return row;
}

describe('pnpm mmw billing reconcile', () => {
  it('makes one account what Stripe says with --account, then every billed account, one line each', async () => {
    await paidWithoutWebhooks('rec-one');
    await paidWithoutWebhooks('rec-two');
    const before = await subscriptionOf('rec-one');
    expect(before?.plan).not.toBe('team');

    const one = await mmw(stub.env, 'billing', 'reconcile', '--account', 'rec-one');
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    expect(one.stdout.trim().split('\n')).toEqual(['rec-one  changed', '1 account(s) reconciled']);
    expect(await subscriptionOf('rec-one')).toEqual({ status: 'trialing', plan: 'team' });
    expect((await subscriptionOf('rec-two'))?.plan).not.toBe('team');
    const [audit] = await testDb.query<{ data: { via: string } }>(
      "select e.data from audit_events e join accounts a on a.id = e.account_id where a.slug = 'rec-one' and e.action = 'subscription.changed' order by e.id desc limit 1",
    );
    expect(audit?.data.via).toBe('reconciliation');

    const all = await mmw(stub.env, 'billing', 'reconcile');
    expect(all.code).toBe(0);
    expect(all.stdout.trim().split('\n')).toEqual(['rec-one  unchanged', 'rec-two  changed', '2 account(s) reconciled']);
    expect(await subscriptionOf('rec-two')).toEqual({ status: 'trialing', plan: 'team' });
  });

  it('says which account failed when Stripe cannot be asked, and exits non-zero', async () => {
    stub.failNext(50);
    const run = await mmw(stub.env, 'billing', 'reconcile', '--account', 'rec-one');
    stub.failNext(0);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('rec-one  failed');
  });

  it('refuses an unknown account, and a server with billing off', async () => {
    const unknown = await mmw(stub.env, 'billing', 'reconcile', '--account', 'nobody-here');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("account 'nobody-here' not found");
    const off = await mmw({}, 'billing', 'reconcile');
    expect(off.code).not.toBe(0);
    expect(off.stderr).toContain('billing is off on this server');
  });
});
