import { describe, expect, it } from 'vitest';
import { provisionKey } from '@mmw/core';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, organizationWith, PASSWORD, uniqueEmail, useDashboard, verifyByMail } from './fixtures.ts';

const f = useDashboard();

describe('an invitation is accepted only by a verified address', () => {
  it('refuses whoever registered the invited address without reading its mail, until the mailed link is followed', async () => {
    const org = await organizationWith(f, 'Verified');
    const email = uniqueEmail('dev');
    const { link } = await org.owner.client.invitations.create.mutate({ accountId: org.accountId, email, role: 'member' });
    const token = link.split('/invite/')[1] ?? '';
    const { client } = dashboardClient(f.url);
    const user = await client.auth.signUp.mutate({ email, password: PASSWORD });
    expect(user.emailVerified).toBe(false);
    expect(await errorCode(client.invitations.accept.mutate({ token }))).toBe('FORBIDDEN');
    expect(await errorCode(client.auth.verifyEmail.mutate({ token: 'a'.repeat(32) }))).toBe('NOT_FOUND');
    await verifyByMail(f, client, email);
    expect((await client.auth.me.query())?.emailVerified).toBe(true);
    expect(await client.invitations.accept.mutate({ token })).toEqual({ accountId: org.accountId });
  });

  it('marks a member the operator attached by email as unverified', async () => {
    const org = await organizationWith(f, 'Operated');
    const [account] = await f.db.query<{ slug: string }>('select slug from accounts where id = $1', [org.accountId]);
    const attached = uniqueEmail('attached');
    await provisionKey(f.db.database.db, { account: account?.slug ?? '', project: 'default', member: attached });
    const members = await org.owner.client.members.list.query({ accountId: org.accountId });
    expect(members.map((m) => ({ email: m.email, verified: m.emailVerified })).sort((a, b) => a.email.localeCompare(b.email))).toEqual(
      [
        { email: attached, verified: false },
        { email: org.owner.email, verified: true },
      ].sort((a, b) => a.email.localeCompare(b.email)),
    );
  });
});
