import { afterAll, beforeAll } from 'vitest';
import {
  createTestDatabase,
  signedStripeDelivery,
  startStripeStub,
  type Delivery,
  type StripeEventJson,
  type StripeStub,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';
import type { FastifyInstance } from 'fastify';
import { mailbox, type Mailbox } from './mailbox.ts';
import { buildDashboardApp } from '../src/index.ts';
import { dashboardClient, type DashboardClient } from './dashboard-client.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface BillingFixture {
  db: TestDatabase;
  stub: StripeStub;
  mcp: RunningMcp;
  app: FastifyInstance;
  url: string;
  webhookUrl: string;
  /** The mail the dashboard sent (verification links). */
  mail: Mailbox;
  /** The clock of the service, the billing jobs and the Stripe stub: tests move it by days. */
  now(): Date;
  advanceDays(days: number): void;
  /** Posts a signed event to the dashboard's webhook route. */
  deliver(event: StripeEventJson, options?: Parameters<typeof signedStripeDelivery>[3]): Promise<Delivery>;
  /** Waits until every billing job (events, syncs, reconciliations) has run. */
  drain(): Promise<void>;
}

/**
 * One database, a Stripe stub, and the MCP ingress and dashboard with billing on (pointed at the
 * stub) and the job worker running, for a test file.
 */
export function useBilling(
  options: { env?: (stub: StripeStub) => Record<string, string>; billing?: boolean } = {},
): BillingFixture {
  let offset = 0;
  const now = () => new Date(Date.now() + offset);
  const fixture = {
    now,
    advanceDays: (days: number) => {
      offset += days * DAY_MS;
    },
  } as BillingFixture;

  beforeAll(async () => {
    fixture.db = await createTestDatabase();
    fixture.stub = await startStripeStub({ clock: now });
    const env = { ...(options.billing === false ? {} : fixture.stub.env), ...options.env?.(fixture.stub) };
    fixture.mcp = await startMcp(fixture.db.database, { env, now, worker: true });
    fixture.mail = mailbox();
    fixture.app = await buildDashboardApp({
      db: fixture.db.database.db,
      logLevel: 'silent',
      mcpUrl: fixture.mcp.url,
      billing: fixture.mcp.runtime.billing,
      notifier: { invitationCreated: () => {} },
      mail: fixture.mail.transport,
      signUpsPerAddress: 10_000,
    });
    await fixture.app.listen({ host: '127.0.0.1', port: 0 });
    const address = fixture.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    fixture.url = `http://127.0.0.1:${address.port}`;
    fixture.webhookUrl = `${fixture.url}/webhooks/stripe`;
    fixture.deliver = (event, deliveryOptions = {}) =>
      signedStripeDelivery(fixture.webhookUrl, event, fixture.stub.webhookSecret, {
        timestamp: Math.floor(now().getTime() / 1000),
        ...deliveryOptions,
      });
    fixture.drain = () => drainBillingJobs(fixture.db);
  });

  afterAll(async () => {
    await fixture.app.close();
    await fixture.mcp.close();
    await fixture.stub.close();
    await fixture.db.drop();
  });
  return fixture;
}

/**
 * Waits, polling with a bound, until no billing job is waiting or running; the next daily
 * reconciliation, scheduled hours ahead, is not waited for.
 */
export async function drainBillingJobs(db: TestDatabase, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const [row] = await db.query<{ n: string }>(
      `select count(*) as n from pgboss.job
        where name in ('stripe-event', 'billing-sync', 'billing-reconcile') and state in ('created', 'retry', 'active')
          and not (state = 'created' and start_after > now() + interval '1 minute')`,
    );
    if (Number(row?.n) === 0) return;
    if (Date.now() - started > timeoutMs) throw new Error(`billing jobs still pending after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The account's subscription row, read past row-level security (for assertions only). */
export async function subscriptionOf(f: BillingFixture, accountId: string) {
  const [row] = await f.db.query<{
    status: string;
    plan: string;
    current_period_end: Date | null;
    stripe_customer_id: string | null;
    stripe_subscription_id: string | null;
    cancel_at_period_end: boolean;
  }>('select * from subscriptions where account_id = $1', [accountId]);
  if (!row) throw new Error('no subscription row');
  return row;
}

/** The subscription changes audited for an account, oldest first. */
export async function subscriptionAudit(f: BillingFixture, accountId: string) {
  return f.db.query<{ action: string; data: Record<string, unknown> }>(
    "select action, data from audit_events where account_id = $1 and action = 'subscription.changed' order by id",
    [accountId],
  );
}

/** An MCP key for the account's default project, issued through the dashboard. */
export async function issueKey(client: DashboardClient, accountId: string): Promise<string> {
  const [project] = await client.projects.list.query({ accountId });
  if (!project) throw new Error('no project');
  const { key } = await client.keys.issue.mutate({ accountId, projectId: project.id, name: 'billing test' });
  return key;
}

let people = 0;

/** A new user, signed up through the dashboard, with an organization of their own. */
export async function ownerWithOrganization(f: BillingFixture, name: string) {
  people += 1;
  const { client } = dashboardClient(f.url);
  const email = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.${people}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  await client.auth.signUp.mutate({ email, password: 'correct horse battery staple', name });
  const org = await client.accounts.createOrganization.mutate({ name });
  return { client, email, accountId: org.id };
}
