import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import type { FastifyInstance } from 'fastify';
import { buildDashboardApp } from '../src/index.ts';
import { dashboardClient } from './dashboard-client.ts';
import { PASSWORD, uniqueEmail } from './fixtures.ts';
import { mailbox } from './mailbox.ts';

let db: TestDatabase;
let app: FastifyInstance;
let url = '';
let logged = '';
const inbox = mailbox();

beforeAll(async () => {
  db = await createTestDatabase();
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => (logged += chunk.toString()));
  // The default invitation notifier and info-level request logs, as in production.
  app = await buildDashboardApp({ db: db.database.db, logLevel: 'info', logStream: stream, mail: inbox.transport });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('no secret in the logs', () => {
  it('logs neither invitation or verification tokens nor tRPC GET inputs, and mails the links instead', async () => {
    const { client } = dashboardClient(url);
    const email = uniqueEmail('logger');
    await client.auth.signUp.mutate({ email, password: PASSWORD });
    const verifyLink = inbox.lastLink(email, '/verify-email/');
    await fetch(verifyLink);
    await client.auth.verifyEmail.mutate({ token: verifyLink.split('/verify-email/')[1] ?? '' });
    const org = await client.accounts.createOrganization.mutate({ name: 'Logged' });
    const invitee = uniqueEmail('invitee');
    const { link } = await client.invitations.create.mutate({ accountId: org.id, email: invitee, role: 'member' });
    expect(inbox.lastLink(invitee, '/invite/')).toBe(link);
    await fetch(link);
    const [project] = await client.projects.list.query({ accountId: org.id });
    // The workspace does not exist yet; the request (and its log line) happens all the same.
    await client.workspaces.search
      .query({ accountId: org.id, projectId: project?.id ?? '', workspace: 'default', query: 'payroll-secret-words', limit: 5 })
      .catch(() => undefined);
    await app.close().catch(() => undefined);
    expect(logged).toContain('"url":"/invite/[redacted]"');
    for (const secret of [link.split('/invite/')[1] ?? 'missing', verifyLink.split('/verify-email/')[1] ?? 'missing', 'payroll-secret-words']) {
      expect(logged).not.toContain(secret);
    }
  });
});
