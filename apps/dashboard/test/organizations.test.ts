import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, organizationWith, signUp, useDashboard } from './fixtures.ts';

const f = useDashboard();

describe('organizations, invitations and members', () => {
  it('invites by link (handed to the notifier), accepts, and lists the member', async () => {
    const owner = await signUp(f, 'boss');
    const org = await owner.client.accounts.createOrganization.mutate({ name: 'Acme' });
    expect(org).toMatchObject({ kind: 'organization', role: 'owner', name: 'Acme' });
    const invitee = await signUp(f, 'newbie');
    const { link, invitation } = await owner.client.invitations.create.mutate({ accountId: org.id, email: invitee.email, role: 'admin' });
    expect(f.invitationLinks.at(-1)).toBe(link);
    expect(link).toMatch(new RegExp(`^${f.url}/invite/[a-z2-7]{32}$`));
    const token = link.split('/invite/')[1] ?? '';

    const stranger = await signUp(f, 'stranger');
    expect(await errorCode(stranger.client.invitations.accept.mutate({ token }))).toBe('FORBIDDEN');

    expect(await invitee.client.invitations.preview.query({ token })).toEqual({ accountName: 'Acme', email: invitee.email, role: 'admin' });
    expect(await invitee.client.invitations.accept.mutate({ token })).toEqual({ accountId: org.id });
    expect(await errorCode(invitee.client.invitations.accept.mutate({ token }))).toBe('NOT_FOUND');
    expect((await invitee.client.accounts.list.query()).map((account) => account.id)).toContain(org.id);

    const members = await owner.client.members.list.query({ accountId: org.id });
    expect(members.map((member) => [member.email, member.role])).toEqual(
      expect.arrayContaining([
        [owner.email, 'owner'],
        [invitee.email, 'admin'],
      ]),
    );
    const listed = await owner.client.invitations.list.query({ accountId: org.id });
    expect(listed.find((row) => row.id === invitation.id)?.status).toBe('accepted');
  });

  it('revokes an invitation so that its link stops working', async () => {
    const { accountId, owner } = await organizationWith(f, 'Revokers');
    const invitee = await signUp(f, 'late');
    const { link, invitation } = await owner.client.invitations.create.mutate({ accountId, email: invitee.email, role: 'member' });
    await owner.client.invitations.revoke.mutate({ accountId, invitationId: invitation.id });
    const token = link.split('/invite/')[1] ?? '';
    expect(await errorCode(invitee.client.invitations.accept.mutate({ token }))).toBe('NOT_FOUND');
  });

  it('lets admins change roles, members not; only owners touch owners; the last owner cannot leave or be demoted', async () => {
    const org = await organizationWith(f, 'Roles', [
      { name: 'adm', role: 'admin' },
      { name: 'mem', role: 'member' },
    ]);
    const adm = org.members.adm;
    const mem = org.members.mem;
    if (!adm || !mem) throw new Error('members missing');
    const accountId = org.accountId;
    expect(await errorCode(mem.client.members.changeRole.mutate({ accountId, userId: adm.userId, role: 'member' }))).toBe('FORBIDDEN');
    expect(await errorCode(adm.client.members.changeRole.mutate({ accountId, userId: org.owner.userId, role: 'member' }))).toBe('FORBIDDEN');
    expect(await errorCode(adm.client.members.changeRole.mutate({ accountId, userId: mem.userId, role: 'owner' }))).toBe('FORBIDDEN');
    await adm.client.members.changeRole.mutate({ accountId, userId: mem.userId, role: 'admin' });

    expect(await errorCode(org.owner.client.accounts.leave.mutate({ accountId }))).toBe('CONFLICT');
    expect(await errorCode(org.owner.client.members.changeRole.mutate({ accountId, userId: org.owner.userId, role: 'admin' }))).toBe(
      'CONFLICT',
    );
    await org.owner.client.members.changeRole.mutate({ accountId, userId: adm.userId, role: 'owner' });
    await org.owner.client.accounts.leave.mutate({ accountId });
    expect(await errorCode(org.owner.client.projects.list.query({ accountId }))).toBe('NOT_FOUND');
    expect(await errorCode(adm.client.accounts.leave.mutate({ accountId }))).toBe('CONFLICT');
  });

  it("removes a member, whose keys stop at once at the MCP door, and members cannot read members' invitations or the audit log", async () => {
    const org = await organizationWith(f, 'Removal', [{ name: 'leaver', role: 'member' }]);
    const leaver = org.members.leaver;
    if (!leaver) throw new Error('member missing');
    const { key } = await leaver.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'laptop' });
    const mcp = await connectMcp(f.mcp.url, key);
    await mcp.ok('remember', { content: 'the leaver wrote this down' });
    await mcp.close();
    expect(await errorCode(leaver.client.audit.list.query({ accountId: org.accountId }))).toBe('FORBIDDEN');
    expect(await errorCode(leaver.client.invitations.list.query({ accountId: org.accountId }))).toBe('FORBIDDEN');

    await org.owner.client.members.remove.mutate({ accountId: org.accountId, userId: leaver.userId });
    const response = await fetch(f.mcp.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(401);
    expect(await errorCode(leaver.client.projects.list.query({ accountId: org.accountId }))).toBe('NOT_FOUND');
    const members = await org.owner.client.members.list.query({ accountId: org.accountId });
    expect(members.find((member) => member.userId === leaver.userId)?.removedAt).not.toBeNull();
  });
});

describe('projects and keys', () => {
  it('creates, renames, deactivates and reactivates projects; a deactivated project gives the spec error at the MCP door', async () => {
    const org = await organizationWith(f, 'Projects', [{ name: 'dev', role: 'member' }]);
    const dev = org.members.dev;
    if (!dev) throw new Error('member missing');
    const accountId = org.accountId;
    const project = await org.owner.client.projects.create.mutate({ accountId, name: 'backend' });
    expect(await errorCode(org.owner.client.projects.create.mutate({ accountId, name: 'backend' }))).toBe('CONFLICT');
    expect(await errorCode(dev.client.projects.create.mutate({ accountId, name: 'mine' }))).toBe('FORBIDDEN');
    const renamed = await org.owner.client.projects.rename.mutate({ accountId, projectId: project.id, name: 'api' });
    expect(renamed.name).toBe('api');

    const issued = await dev.client.keys.issue.mutate({ accountId, projectId: project.id, name: 'dev laptop' });
    expect(issued.key).toMatch(/^mmw_/);
    expect(issued.claudeCommand).toBe(`claude mcp add --transport http mmw ${f.mcp.url} --header "Authorization: Bearer ${issued.key}"`);
    expect(issued.summary).toMatchObject({ name: 'dev laptop', prefix: issued.key.slice(0, 12), userEmail: dev.email, createdByEmail: dev.email });

    const listed = await dev.client.keys.list.query({ accountId });
    expect(JSON.stringify(listed)).not.toContain(issued.key);
    const mcp = await connectMcp(f.mcp.url, issued.key);
    await mcp.ok('remember', { content: 'api deploys from main' });
    const afterUse = await dev.client.keys.list.query({ accountId });
    expect(afterUse.find((key) => key.id === issued.summary.id)?.lastUsedAt).not.toBeNull();

    await org.owner.client.projects.setActive.mutate({ accountId, projectId: project.id, active: false });
    const refused = await mcp.call('search', { query: 'deploys' });
    expect(refused.text).toBe('bound project is missing, inactive, or outside tenant');
    await org.owner.client.projects.setActive.mutate({ accountId, projectId: project.id, active: true });
    expect((await mcp.call('search', { query: 'deploys' })).isError).toBe(false);

    await dev.client.keys.revoke.mutate({ accountId, keyId: issued.summary.id });
    await expect(mcp.call('search', { query: 'deploys' })).rejects.toThrow();
    await mcp.close();
    const actions = (await org.owner.client.audit.list.query({ accountId })).events.map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['key.issued', 'key.revoked', 'project.deactivated', 'project.reactivated', 'project.renamed']));
  });

  it('lets a member see and revoke only their own keys, while admins see all', async () => {
    const org = await organizationWith(f, 'KeyScope', [{ name: 'one', role: 'member' }]);
    const one = org.members.one;
    if (!one) throw new Error('member missing');
    const ownerKey = await org.owner.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'owner key' });
    await one.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'member key' });
    expect((await one.client.keys.list.query({ accountId: org.accountId })).map((key) => key.name)).toEqual(['member key']);
    expect((await org.owner.client.keys.list.query({ accountId: org.accountId })).map((key) => key.name).sort()).toEqual([
      'member key',
      'owner key',
    ]);
    expect(await errorCode(one.client.keys.revoke.mutate({ accountId: org.accountId, keyId: ownerKey.summary.id }))).toBe('NOT_FOUND');
  });
});

describe('unsigned callers', () => {
  it('gets UNAUTHORIZED from every signed-in procedure', async () => {
    const anonymous = dashboardClient(f.url).client;
    expect(await errorCode(anonymous.accounts.list.query())).toBe('UNAUTHORIZED');
    expect(await errorCode(anonymous.projects.list.query({ accountId: crypto.randomUUID() }))).toBe('UNAUTHORIZED');
  });
});
