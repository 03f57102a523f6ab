import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, organizationWith, signUp, useDashboard } from './fixtures.ts';

const f = useDashboard();

async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return `${(error as { data?: { code?: string } }).data?.code ?? '?'}: ${(error as Error).message}`;
  }
  return 'no error';
}

describe('invitations: no duplicates, no self-invitation, resend', () => {
  it('refuses inviting yourself, an active member, and an address with an open invitation', async () => {
    const org = await organizationWith(f, 'Invitees', [{ name: 'present', role: 'member' }]);
    const { accountId, owner } = org;
    expect(await failure(owner.client.invitations.create.mutate({ accountId, email: owner.email.toUpperCase(), role: 'member' }))).toBe(
      'BAD_REQUEST: you cannot invite yourself',
    );
    const present = org.members.present?.email ?? '';
    expect(await failure(owner.client.invitations.create.mutate({ accountId, email: present, role: 'admin' }))).toBe(
      `CONFLICT: ${present} is already a member`,
    );
    const newcomer = await signUp(f, 'newcomer');
    await owner.client.invitations.create.mutate({ accountId, email: newcomer.email, role: 'member' });
    expect(await failure(owner.client.invitations.create.mutate({ accountId, email: newcomer.email, role: 'admin' }))).toBe(
      `CONFLICT: ${newcomer.email} already has an open invitation; resend it or revoke it first`,
    );
    // Two admins at once: one invitation, one clear error.
    const later = await signUp(f, 'raced');
    const both = await Promise.all([1, 2].map(() => errorCode(owner.client.invitations.create.mutate({ accountId, email: later.email, role: 'member' }))));
    expect(both.sort()).toEqual(['CONFLICT', 'no error']);
    const open = (await owner.client.invitations.list.query({ accountId })).filter((row) => row.email === later.email);
    expect(open).toHaveLength(1);
  });

  it('resends with a new link that works while the old one stops; a revoked one cannot be resent', async () => {
    const { accountId, owner } = await organizationWith(f, 'Resenders');
    const invitee = await signUp(f, 'resent');
    const first = await owner.client.invitations.create.mutate({ accountId, email: invitee.email, role: 'member' });
    const again = await owner.client.invitations.resend.mutate({ accountId, invitationId: first.invitation.id });
    expect(again.link).not.toBe(first.link);
    expect(f.invitationLinks.at(-1)).toBe(again.link);
    expect(again.invitation).toMatchObject({ id: first.invitation.id, status: 'pending' });
    expect(await errorCode(invitee.client.invitations.accept.mutate({ token: first.link.split('/invite/')[1] ?? '' }))).toBe('NOT_FOUND');
    await invitee.client.invitations.accept.mutate({ token: again.link.split('/invite/')[1] ?? '' });
    expect(await errorCode(owner.client.invitations.resend.mutate({ accountId, invitationId: first.invitation.id }))).toBe('NOT_FOUND');

    const other = await signUp(f, 'revoked');
    const revoked = await owner.client.invitations.create.mutate({ accountId, email: other.email, role: 'member' });
    await owner.client.invitations.revoke.mutate({ accountId, invitationId: revoked.invitation.id });
    expect(await errorCode(owner.client.invitations.resend.mutate({ accountId, invitationId: revoked.invitation.id }))).toBe('NOT_FOUND');
    // Once revoked, the address may be invited afresh.
    await owner.client.invitations.create.mutate({ accountId, email: other.email, role: 'member' });
  });

  it('shows the invited email to whoever holds the link, signed in or not', async () => {
    const { accountId, owner } = await organizationWith(f, 'Previewers');
    const { link } = await owner.client.invitations.create.mutate({ accountId, email: 'someone.new@example.com', role: 'admin' });
    const anonymous = dashboardClient(f.url).client;
    expect(await anonymous.invitations.preview.query({ token: link.split('/invite/')[1] ?? '' })).toEqual({
      accountName: 'Previewers',
      email: 'someone.new@example.com',
      role: 'admin',
    });
  });
});

describe('handover: once per leaver, and over when they rejoin', () => {
  it("refuses a second handover, and a rejoined member's new author-only records are theirs alone", async () => {
    const org = await organizationWith(f, 'Returners', [
      { name: 'bob', role: 'member' },
      { name: 'cat', role: 'member' },
    ]);
    const { accountId, projectId, owner } = org;
    const bob = org.members.bob;
    const cat = org.members.cat;
    if (!bob || !cat) throw new Error('members missing');
    const bobKey = await bob.client.keys.issue.mutate({ accountId, projectId, name: 'bob laptop' });
    const bobMcp = await connectMcp(f.mcp.url, bobKey.key);
    await bobMcp.ok('remember', { content: 'bob first stint notes about the billing cron', workspace: 'bob-notes' });
    const spaces = await owner.client.workspaces.list.query({ accountId, projectId });
    const workspaceId = spaces.find((space) => space.name === 'bob-notes')?.id ?? '';
    await owner.client.visibility.set.mutate({ accountId, projectId, workspaceId, rule: { mode: 'author', userIds: [], roles: [] } });
    const ownerReads = async () =>
      (await owner.client.workspaces.search.query({ accountId, projectId, workspace: 'bob-notes', query: '', limit: 50 })).result.map(
        (row) => row.content,
      );
    expect(await ownerReads()).toEqual([]);

    await owner.client.members.remove.mutate({ accountId, userId: bob.userId, receiverUserId: owner.userId });
    expect(await ownerReads()).toEqual(['bob first stint notes about the billing cron']);
    expect(await failure(owner.client.handover.create.mutate({ accountId, fromUserId: bob.userId, toUserId: cat.userId }))).toBe(
      `CONFLICT: this member's knowledge was already handed over to ${owner.email}; a handover is done once`,
    );
    expect(await failure(owner.client.handover.create.mutate({ accountId, fromUserId: bob.userId, toUserId: owner.userId }))).toMatch(/^CONFLICT/);

    const { link } = await owner.client.invitations.create.mutate({ accountId, email: bob.email, role: 'member' });
    await bob.client.invitations.accept.mutate({ token: link.split('/invite/')[1] ?? '' });
    expect(await owner.client.handover.list.query({ accountId })).toEqual([]);
    const ended = await owner.client.audit.list.query({ accountId, action: 'handover.ended' });
    expect(ended.events).toHaveLength(1);
    const newKey = await bob.client.keys.issue.mutate({ accountId, projectId, name: 'bob again' });
    const again = await connectMcp(f.mcp.url, newKey.key);
    await again.ok('remember', { content: 'bob second stint private plans for the billing cron', workspace: 'bob-notes' });
    expect(await ownerReads()).toEqual([]);
    const bobReads = await bob.client.workspaces.search.query({ accountId, projectId, workspace: 'bob-notes', query: '', limit: 50 });
    expect(bobReads.result).toHaveLength(2);
  });
});
