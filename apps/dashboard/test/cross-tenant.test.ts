import { beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { appRouter } from '../src/index.ts';
import type { DashboardClient } from './dashboard-client.ts';
import { errorCode, organizationWith, signUp, useDashboard, type SignedIn } from './fixtures.ts';
import { pkce, postForm } from './oauth-support.ts';

const f = useDashboard();
const REDIRECT = 'https://connector.example.com/callback';

/** The ids of tenant A that tenant B tries to reach. */
interface Victim {
  accountId: string;
  projectId: string;
  workspaceId: string;
  recordId: string;
  /** A second version of the same fact_key, in conflict-resolution calls. */
  otherRecordId: string;
  keyId: string;
  invitationId: string;
  invitationToken: string;
  memberUserId: string;
  formerUserId: string;
  keyRequestId: string;
  /** A connected OAuth client of tenant A, and a valid authorization request of its client. */
  grantId: string;
  authorization: Record<string, string>;
}

interface Attacker {
  client: DashboardClient;
  accountId: string;
  projectId: string;
  userId: string;
}

type Call = (v: Victim, a: Attacker) => Promise<unknown>;

/**
 * Every procedure of the router, called by tenant B with tenant A's ids: with A's account id, and
 * with B's own account id but A's object ids. User-level procedures say why no tenant id applies.
 */
type Entry =
  | { withVictimAccount: Call; withOwnAccount: Call | 'no object ids' }
  | { userLevel: string; check?: { call: Call; expected: string } };

const matrix: Record<string, Entry> = {
  'auth.me': { userLevel: 'answers about the caller only' },
  'auth.signUp': { userLevel: 'creates a new user' },
  'auth.signIn': { userLevel: 'takes credentials, no ids' },
  'auth.signOut': { userLevel: "ends the caller's own session" },
  'auth.signOutEverywhere': { userLevel: "ends the caller's own sessions" },
  'auth.changePassword': { userLevel: "changes the caller's own password" },
  'auth.verifySecondFactor': { userLevel: "completes the caller's own pending sign-in" },
  'auth.requestPasswordReset': { userLevel: 'takes an email and answers the same whether or not it is known' },
  'auth.resetPassword': { userLevel: 'takes a one-use token, no ids', check: { call: (_v, a) => a.client.auth.resetPassword.mutate({ token: 'a'.repeat(32), newPassword: 'guessed password here' }), expected: 'NOT_FOUND' } },
  'auth.verifyEmail': { userLevel: 'takes a one-use token, no ids' },
  'auth.resendVerification': { userLevel: "mails the caller's own address" },
  'twoFactor.status': { userLevel: "the caller's own two-factor state" },
  'twoFactor.startEnrolment': { userLevel: "enrols the caller's own authenticator" },
  'twoFactor.confirmEnrolment': { userLevel: "confirms the caller's own enrolment" },
  'twoFactor.disable': { userLevel: "turns off the caller's own two-factor sign-in" },
  'accounts.list': { userLevel: "lists the caller's own memberships" },
  'accounts.createOrganization': { userLevel: 'creates a new account' },
  'accounts.get': { withVictimAccount: (v, a) => a.client.accounts.get.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'accounts.rename': { withVictimAccount: (v, a) => a.client.accounts.rename.mutate({ accountId: v.accountId, name: 'Owned' }), withOwnAccount: 'no object ids' },
  'accounts.connection': { withVictimAccount: (v, a) => a.client.accounts.connection.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'accounts.leave': { withVictimAccount: (v, a) => a.client.accounts.leave.mutate({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'accounts.exportRecords': {
    withVictimAccount: (v, a) => a.client.accounts.exportRecords.query({ accountId: v.accountId }),
    withOwnAccount: 'no object ids',
  },
  'accounts.setTwoFactorRequirement': {
    withVictimAccount: (v, a) => a.client.accounts.setTwoFactorRequirement.mutate({ accountId: v.accountId, required: false }),
    withOwnAccount: 'no object ids',
  },
  'accounts.delete': {
    withVictimAccount: (v, a) => a.client.accounts.delete.mutate({ accountId: v.accountId, confirmName: 'Victim' }),
    withOwnAccount: 'no object ids',
  },
  'members.list': { withVictimAccount: (v, a) => a.client.members.list.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'members.changeRole': {
    withVictimAccount: (v, a) => a.client.members.changeRole.mutate({ accountId: v.accountId, userId: v.memberUserId, role: 'owner' }),
    withOwnAccount: (v, a) => a.client.members.changeRole.mutate({ accountId: a.accountId, userId: v.memberUserId, role: 'owner' }),
  },
  'members.remove': {
    withVictimAccount: (v, a) => a.client.members.remove.mutate({ accountId: v.accountId, userId: v.memberUserId }),
    withOwnAccount: (v, a) => a.client.members.remove.mutate({ accountId: a.accountId, userId: v.memberUserId }),
  },
  'invitations.list': { withVictimAccount: (v, a) => a.client.invitations.list.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'invitations.create': {
    withVictimAccount: (v, a) => a.client.invitations.create.mutate({ accountId: v.accountId, email: 'x@example.com', role: 'owner' }),
    withOwnAccount: 'no object ids',
  },
  'invitations.resend': {
    withVictimAccount: (v, a) => a.client.invitations.resend.mutate({ accountId: v.accountId, invitationId: v.invitationId }),
    withOwnAccount: (v, a) => a.client.invitations.resend.mutate({ accountId: a.accountId, invitationId: v.invitationId }),
  },
  'invitations.revoke': {
    withVictimAccount: (v, a) => a.client.invitations.revoke.mutate({ accountId: v.accountId, invitationId: v.invitationId }),
    withOwnAccount: (v, a) => a.client.invitations.revoke.mutate({ accountId: a.accountId, invitationId: v.invitationId }),
  },
  'invitations.preview': { userLevel: 'the link token is the capability; a guessed token is NOT_FOUND', check: { call: (_v, a) => a.client.invitations.preview.query({ token: 'a'.repeat(32) }), expected: 'NOT_FOUND' } },
  'invitations.accept': {
    userLevel: "accepting needs the token and the invited email; another person's is refused",
    check: { call: (v, a) => a.client.invitations.accept.mutate({ token: v.invitationToken }), expected: 'FORBIDDEN' },
  },
  'projects.list': { withVictimAccount: (v, a) => a.client.projects.list.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'projects.create': { withVictimAccount: (v, a) => a.client.projects.create.mutate({ accountId: v.accountId, name: 'intruder' }), withOwnAccount: 'no object ids' },
  'projects.rename': {
    withVictimAccount: (v, a) => a.client.projects.rename.mutate({ accountId: v.accountId, projectId: v.projectId, name: 'owned' }),
    withOwnAccount: (v, a) => a.client.projects.rename.mutate({ accountId: a.accountId, projectId: v.projectId, name: 'owned' }),
  },
  'projects.setActive': {
    withVictimAccount: (v, a) => a.client.projects.setActive.mutate({ accountId: v.accountId, projectId: v.projectId, active: false }),
    withOwnAccount: (v, a) => a.client.projects.setActive.mutate({ accountId: a.accountId, projectId: v.projectId, active: false }),
  },
  'keys.list': { withVictimAccount: (v, a) => a.client.keys.list.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'keys.issue': {
    withVictimAccount: (v, a) => a.client.keys.issue.mutate({ accountId: v.accountId, projectId: v.projectId, name: 'stolen' }),
    withOwnAccount: (v, a) => a.client.keys.issue.mutate({ accountId: a.accountId, projectId: v.projectId, name: 'stolen' }),
  },
  'keys.revoke': {
    withVictimAccount: (v, a) => a.client.keys.revoke.mutate({ accountId: v.accountId, keyId: v.keyId }),
    withOwnAccount: (v, a) => a.client.keys.revoke.mutate({ accountId: a.accountId, keyId: v.keyId }),
  },
  'keys.requests': { withVictimAccount: (v, a) => a.client.keys.requests.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'keys.request': {
    withVictimAccount: (v, a) =>
      a.client.keys.request.mutate({ accountId: v.accountId, projectId: v.projectId, name: 'stolen', userId: v.memberUserId }),
    withOwnAccount: (v, a) =>
      a.client.keys.request.mutate({ accountId: a.accountId, projectId: v.projectId, name: 'stolen', userId: v.memberUserId }),
  },
  'keys.acceptRequest': {
    withVictimAccount: (v, a) => a.client.keys.acceptRequest.mutate({ accountId: v.accountId, requestId: v.keyRequestId }),
    withOwnAccount: (v, a) => a.client.keys.acceptRequest.mutate({ accountId: a.accountId, requestId: v.keyRequestId }),
  },
  'keys.closeRequest': {
    withVictimAccount: (v, a) => a.client.keys.closeRequest.mutate({ accountId: v.accountId, requestId: v.keyRequestId }),
    withOwnAccount: (v, a) => a.client.keys.closeRequest.mutate({ accountId: a.accountId, requestId: v.keyRequestId }),
  },
  'sessions.list': {
    withVictimAccount: (v, a) => a.client.sessions.list.query({ accountId: v.accountId, projectId: v.projectId }),
    withOwnAccount: (v, a) => a.client.sessions.list.query({ accountId: a.accountId, projectId: v.projectId }),
  },
  'sessions.delete': {
    withVictimAccount: (v, a) => a.client.sessions.delete.mutate({ accountId: v.accountId, sessionId: v.recordId }),
    withOwnAccount: 'no object ids',
  },
  'workspaces.list': {
    withVictimAccount: (v, a) => a.client.workspaces.list.query({ accountId: v.accountId, projectId: v.projectId }),
    withOwnAccount: (v, a) => a.client.workspaces.list.query({ accountId: a.accountId, projectId: v.projectId }),
  },
  'workspaces.search': {
    withVictimAccount: (v, a) => a.client.workspaces.search.query({ accountId: v.accountId, projectId: v.projectId, workspace: 'default', query: '' }),
    withOwnAccount: (v, a) => a.client.workspaces.search.query({ accountId: a.accountId, projectId: v.projectId, workspace: 'default', query: '' }),
  },
  'workspaces.versions': {
    withVictimAccount: (v, a) =>
      a.client.workspaces.versions.query({ accountId: v.accountId, projectId: v.projectId, workspace: 'default', factKey: 'secret-plan' }),
    withOwnAccount: (v, a) =>
      a.client.workspaces.versions.query({ accountId: a.accountId, projectId: v.projectId, workspace: 'default', factKey: 'secret-plan' }),
  },
  'workspaces.forget': {
    withVictimAccount: (v, a) => a.client.workspaces.forget.mutate({ accountId: v.accountId, projectId: v.projectId, id: v.recordId }),
    withOwnAccount: (v, a) => a.client.workspaces.forget.mutate({ accountId: a.accountId, projectId: a.projectId, id: v.recordId }),
  },
  'workspaces.purge': {
    withVictimAccount: (v, a) =>
      a.client.workspaces.purge.mutate({ accountId: v.accountId, projectId: v.projectId, id: v.recordId, confirmId: v.recordId }),
    withOwnAccount: (v, a) =>
      a.client.workspaces.purge.mutate({ accountId: a.accountId, projectId: a.projectId, id: v.recordId, confirmId: v.recordId }),
  },
  'visibility.get': {
    withVictimAccount: (v, a) => a.client.visibility.get.query({ accountId: v.accountId, projectId: v.projectId }),
    withOwnAccount: (v, a) => a.client.visibility.get.query({ accountId: a.accountId, projectId: v.projectId }),
  },
  'visibility.set': {
    withVictimAccount: (v, a) =>
      a.client.visibility.set.mutate({ accountId: v.accountId, projectId: v.projectId, rule: { mode: 'organization', userIds: [], roles: [] } }),
    withOwnAccount: (v, a) =>
      a.client.visibility.set.mutate({
        accountId: a.accountId,
        projectId: a.projectId,
        workspaceId: v.workspaceId,
        rule: { mode: 'listed', userIds: [v.memberUserId], roles: [] },
      }),
  },
  'handover.list': { withVictimAccount: (v, a) => a.client.handover.list.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'handover.create': {
    withVictimAccount: (v, a) => a.client.handover.create.mutate({ accountId: v.accountId, fromUserId: v.formerUserId, toUserId: a.userId }),
    withOwnAccount: (v, a) => a.client.handover.create.mutate({ accountId: a.accountId, fromUserId: v.formerUserId, toUserId: a.userId }),
  },
  'audit.list': { withVictimAccount: (v, a) => a.client.audit.list.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'audit.exportCsv': { withVictimAccount: (v, a) => a.client.audit.exportCsv.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'oauth.describe': { userLevel: "shows the client's own request; it names no account or project" },
  'oauth.deny': { userLevel: 'sends the browser back to the client; it names no account or project' },
  'oauth.approve': {
    withVictimAccount: (v, a) => a.client.oauth.approve.mutate({ accountId: v.accountId, projectId: v.projectId, params: v.authorization }),
    withOwnAccount: (v, a) => a.client.oauth.approve.mutate({ accountId: a.accountId, projectId: v.projectId, params: v.authorization }),
  },
  'oauth.clients': { withVictimAccount: (v, a) => a.client.oauth.clients.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'oauth.revokeClient': {
    withVictimAccount: (v, a) => a.client.oauth.revokeClient.mutate({ accountId: v.accountId, grantId: v.grantId }),
    withOwnAccount: (v, a) => a.client.oauth.revokeClient.mutate({ accountId: a.accountId, grantId: v.grantId }),
  },
  'portability.exportPage': {
    withVictimAccount: (v, a) => a.client.portability.exportPage.query({ accountId: v.accountId, cursor: null }),
    withOwnAccount: 'no object ids',
  },
  'portability.import': {
    withVictimAccount: (v, a) => a.client.portability.import.mutate({ accountId: v.accountId, file: '' }),
    withOwnAccount: 'no object ids',
  },
  'workspaces.browse': {
    withVictimAccount: (v, a) => a.client.workspaces.browse.query({ accountId: v.accountId, projectId: v.projectId, workspace: 'default' }),
    withOwnAccount: (v, a) => a.client.workspaces.browse.query({ accountId: a.accountId, projectId: v.projectId, workspace: 'default' }),
  },
  'workspaces.record': {
    withVictimAccount: (v, a) => a.client.workspaces.record.query({ accountId: v.accountId, projectId: v.projectId, id: v.recordId }),
    withOwnAccount: (v, a) => a.client.workspaces.record.query({ accountId: a.accountId, projectId: a.projectId, id: v.recordId }),
  },
  'workspaces.resolveConflict': {
    withVictimAccount: (v, a) =>
      a.client.workspaces.resolveConflict.mutate({ accountId: v.accountId, projectId: v.projectId, keepId: v.recordId, forgetId: v.otherRecordId }),
    withOwnAccount: (v, a) =>
      a.client.workspaces.resolveConflict.mutate({ accountId: a.accountId, projectId: a.projectId, keepId: v.recordId, forgetId: v.otherRecordId }),
  },
  'billing.overview': { withVictimAccount: (v, a) => a.client.billing.overview.query({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'billing.checkout': {
    withVictimAccount: (v, a) => a.client.billing.checkout.mutate({ accountId: v.accountId, plan: 'pro' }),
    withOwnAccount: 'no object ids',
  },
  'billing.portal': { withVictimAccount: (v, a) => a.client.billing.portal.mutate({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
  'billing.refresh': { withVictimAccount: (v, a) => a.client.billing.refresh.mutate({ accountId: v.accountId }), withOwnAccount: 'no object ids' },
};

const victim = {} as Victim;
const attacker = {} as Attacker;
let victimKey = '';
let victimOwner: SignedIn;

beforeAll(async () => {
  const org = await organizationWith(f, 'Victim', [
    { name: 'member', role: 'member' },
    { name: 'former', role: 'member' },
  ]);
  victimOwner = org.owner;
  const member = org.members.member;
  const former = org.members.former;
  if (!member || !former) throw new Error('members missing');
  const issued = await org.owner.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'victim key' });
  victimKey = issued.key;
  const mcp = await connectMcp(f.mcp.url, issued.key);
  const record = await mcp.ok<{ id: string }>('remember', { content: 'the victim secret plan', fact_key: 'secret-plan' });
  const budget = await mcp.ok<{ id: string }>('remember', { content: 'the victim budget for next year', fact_key: 'budget' });
  await mcp.close();
  const registered = await fetch(`${f.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Victim connector', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  const clientId = ((await registered.json()) as { client_id: string }).client_id;
  const { verifier, challenge } = pkce();
  const authorization = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource: f.mcp.url,
  };
  const approved = await org.owner.client.oauth.approve.mutate({ accountId: org.accountId, projectId: org.projectId, params: authorization });
  await postForm(`${f.url}/oauth/token`, {
    grant_type: 'authorization_code',
    code: new URL(approved.redirectTo).searchParams.get('code') ?? '',
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: REDIRECT,
    resource: f.mcp.url,
  });
  const [grant] = await org.owner.client.oauth.clients.query({ accountId: org.accountId });
  const [workspace] = await org.owner.client.workspaces.list.query({ accountId: org.accountId, projectId: org.projectId });
  const keyRequest = await org.owner.client.keys.request.mutate({
    accountId: org.accountId,
    projectId: org.projectId,
    name: 'for the member',
    userId: member.userId,
  });
  const pending = await signUp(f, 'pending');
  const { invitation, link } = await org.owner.client.invitations.create.mutate({ accountId: org.accountId, email: pending.email, role: 'member' });
  await org.owner.client.members.remove.mutate({ accountId: org.accountId, userId: former.userId });
  Object.assign(victim, {
    accountId: org.accountId,
    projectId: org.projectId,
    workspaceId: workspace?.id ?? '',
    recordId: record.id,
    otherRecordId: budget.id,
    grantId: grant?.id ?? '',
    authorization,
    keyId: issued.summary.id,
    invitationId: invitation.id,
    invitationToken: link.split('/invite/')[1] ?? '',
    memberUserId: member.userId,
    formerUserId: former.userId,
    keyRequestId: keyRequest.id,
  });
  const other = await organizationWith(f, 'Attacker');
  Object.assign(attacker, { client: other.owner.client, accountId: other.accountId, projectId: other.projectId, userId: other.owner.userId });
});

describe('cross-tenant matrix', () => {
  it('covers every procedure of the router', () => {
    expect(Object.keys(matrix).sort()).toEqual(Object.keys(appRouter._def.procedures).sort());
  });

  for (const [path, entry] of Object.entries(matrix)) {
    if ('userLevel' in entry) {
      if (entry.check) {
        const check = entry.check;
        it(`${path}: ${entry.userLevel}`, async () => {
          expect(await errorCode(check.call(victim, attacker))).toBe(check.expected);
        });
      }
      continue;
    }
    it(`${path} with the other tenant's account id is NOT_FOUND`, async () => {
      expect(await errorCode(entry.withVictimAccount(victim, attacker))).toBe('NOT_FOUND');
    });
    const own = entry.withOwnAccount;
    if (own !== 'no object ids') {
      it(`${path} with its own account id and the other tenant's object ids is NOT_FOUND`, async () => {
        expect(await errorCode(own(victim, attacker))).toBe('NOT_FOUND');
      });
    }
  }

  it("left the other tenant's data untouched", async () => {
    const accountId = victim.accountId;
    const projects = await victimOwner.client.projects.list.query({ accountId });
    expect(projects.map((project) => [project.name, project.active])).toEqual([['default', true]]);
    const mcp = await connectMcp(f.mcp.url, victimKey);
    const found = await mcp.ok<{ result: Array<{ id: string }> }>('search', { query: 'secret plan' });
    expect(found.result.map((row) => row.id)).toEqual([victim.recordId]);
    await mcp.close();
    const members = await victimOwner.client.members.list.query({ accountId });
    expect(members.find((row) => row.userId === victim.memberUserId)?.role).toBe('member');
    expect(await victimOwner.client.handover.list.query({ accountId })).toEqual([]);
    expect((await victimOwner.client.oauth.clients.query({ accountId })).map((client) => client.id)).toEqual([victim.grantId]);
    const invitations = await victimOwner.client.invitations.list.query({ accountId });
    expect(invitations.find((row) => row.id === victim.invitationId)?.status).toBe('pending');
  });
});
