import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@mmw/core';
import { buildDashboardApp } from '../src/index.ts';
import { dashboardClient, type DashboardClient } from './dashboard-client.ts';
import { mailbox, type Mailbox } from './mailbox.ts';

export interface DashboardFixture {
  db: TestDatabase;
  app: FastifyInstance;
  mcp: RunningMcp;
  url: string;
  /** Links the notifier received, newest last: what the email would carry. */
  invitationLinks: string[];
  mail: Mailbox;
}

/** One database, the dashboard and the MCP ingress for a test file. */
export function useDashboard(options: { env?: Record<string, string> } = {}): DashboardFixture {
  const fixture = { invitationLinks: [] as string[], mail: mailbox() } as DashboardFixture;
  beforeAll(async () => {
    fixture.db = await createTestDatabase();
    // The dashboard is the MCP endpoint's OAuth issuer; its address is known once it listens.
    fixture.mcp = await startMcp(fixture.db.database, { authorizationServer: () => fixture.url });
    fixture.app = await buildDashboardApp({
      config: loadConfig(options.env ?? {}),
      db: fixture.db.database.db,
      logLevel: 'silent',
      mcpUrl: fixture.mcp.url,
      // As the server wires it: billing is off without Stripe's key, and the Billing page says so.
      billing: fixture.mcp.runtime.billing,
      notifier: { invitationCreated: ({ link }) => void fixture.invitationLinks.push(link) },
      mail: fixture.mail.transport,
      signUpsPerAddress: 10_000,
    });
    await fixture.app.listen({ host: '127.0.0.1', port: 0 });
    const address = fixture.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    fixture.url = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await fixture.app.close();
    await fixture.mcp.close();
    await fixture.db.drop();
  });
  return fixture;
}

export interface SignedIn {
  client: DashboardClient;
  userId: string;
  email: string;
  personalAccountId: string;
}

let counter = 0;
export function uniqueEmail(name: string): string {
  counter += 1;
  return `${name}.${counter}.${Math.random().toString(36).slice(2, 8)}@example.com`.toLowerCase();
}

export const PASSWORD = 'correct horse battery staple';

export async function signUp(f: DashboardFixture, name: string): Promise<SignedIn> {
  const { client } = dashboardClient(f.url);
  const email = uniqueEmail(name);
  const user = await client.auth.signUp.mutate({ email, password: PASSWORD, name });
  await verifyByMail(f, client, email);
  const accounts = await client.accounts.list.query();
  const personal = accounts.find((account) => account.kind === 'personal');
  if (!personal) throw new Error('no personal account');
  return { client, userId: user.id, email, personalAccountId: personal.id };
}

/** Follows the verification link mailed to the address, as its owner would. */
export async function verifyByMail(f: DashboardFixture, client: DashboardClient, email: string): Promise<void> {
  const link = f.mail.lastLink(email, '/verify-email/');
  await client.auth.verifyEmail.mutate({ token: link.split('/verify-email/')[1] ?? '' });
}

export interface Organization {
  accountId: string;
  projectId: string;
  owner: SignedIn;
}

/** An organization with its owner and, per role given, a member who accepted an invitation. */
export async function organizationWith(
  f: DashboardFixture,
  name: string,
  members: Array<{ name: string; role: 'owner' | 'admin' | 'member' }> = [],
): Promise<Organization & { members: Record<string, SignedIn> }> {
  const owner = await signUp(f, `${name}-owner`);
  const org = await owner.client.accounts.createOrganization.mutate({ name });
  const [project] = await owner.client.projects.list.query({ accountId: org.id });
  if (!project) throw new Error('no project');
  const joined: Record<string, SignedIn> = {};
  for (const member of members) {
    const person = await signUp(f, member.name);
    const { link } = await owner.client.invitations.create.mutate({ accountId: org.id, email: person.email, role: member.role });
    const token = link.split('/invite/')[1] ?? '';
    await person.client.invitations.accept.mutate({ token });
    joined[member.name] = person;
  }
  return { accountId: org.id, projectId: project.id, owner, members: joined };
}

/** The tRPC error code of a call that must fail. */
export async function errorCode(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    const data = (error as { data?: { code?: string } }).data;
    return data?.code ?? `non-tRPC error: ${String(error)}`;
  }
  return 'no error';
}
