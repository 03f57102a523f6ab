import { connectMcp, type McpTestClient } from '@mmw/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCode, organizationWith, useDashboard, type SignedIn } from './fixtures.ts';

const f = useDashboard();

let accountId = '';
let projectId = '';
let owner: SignedIn;
let bob: SignedIn;
let ownerMcp: McpTestClient;
let bobMcp: McpTestClient;
const ids: Record<string, string> = {};

async function remember(mcp: McpTestClient, name: string, input: Record<string, unknown>): Promise<void> {
  const { id } = await mcp.ok<{ id: string }>('remember', { workspace: 'notes', ...input });
  ids[name] = id;
}

beforeAll(async () => {
  const org = await organizationWith(f, 'Browsed', [{ name: 'bob', role: 'member' }]);
  accountId = org.accountId;
  projectId = org.projectId;
  owner = org.owner;
  bob = org.members.bob ?? owner;
  const ownerKey = await owner.client.keys.issue.mutate({ accountId, projectId, name: 'owner' });
  const bobKey = await bob.client.keys.issue.mutate({ accountId, projectId, name: 'bob' });
  ownerMcp = await connectMcp(f.mcp.url, ownerKey.key);
  bobMcp = await connectMcp(f.mcp.url, bobKey.key);
  for (let i = 1; i <= 25; i++) await remember(ownerMcp, `plain${i}`, { content: `plain note number ${i}`, scope: i % 5 === 0 ? 'shared' : null });
  await remember(ownerMcp, 'deployOld', { content: 'staging is deployed by hand', fact_key: 'deploy-staging' });
  await remember(ownerMcp, 'deployNew', { content: 'staging is deployed by the pipeline', fact_key: 'deploy-staging' });
  await remember(ownerMcp, 'summary', { content: 'a summary of deploys', derived_from: [ids.deployNew] });
});

afterAll(async () => {
  await ownerMcp.close();
  await bobMcp.close();
});

describe('browsing records', () => {
  it('pages with a total and folds older versions of a fact_key under the newest', async () => {
    const first = await owner.client.workspaces.browse.query({ accountId, projectId, workspace: 'notes', pageSize: 10 });
    // 25 plain notes, one deploy-staging (two versions folded into one), one summary.
    expect(first.total).toBe(27);
    expect(first.totalCapped).toBe(false);
    expect(first.records).toHaveLength(10);
    expect(first.records[0]?.id).toBe(ids.summary);
    const deploy = first.records.find((record) => record.fact_key === 'deploy-staging');
    expect(deploy).toMatchObject({ id: ids.deployNew, versions: 2, status: 'conflict' });
    expect(first.records.some((record) => record.id === ids.deployOld)).toBe(false);
    const third = await owner.client.workspaces.browse.query({ accountId, projectId, workspace: 'notes', pageSize: 10, page: 3 });
    expect(third.records.map((record) => record.content)).toEqual(
      Array.from({ length: 7 }, (_, i) => `plain note number ${7 - i}`),
    );
  });

  it('filters by status, scope, fact_key and source', async () => {
    const browse = (filter: Record<string, string>) =>
      owner.client.workspaces.browse.query({ accountId, projectId, workspace: 'notes', pageSize: 50, ...filter });
    expect((await browse({ status: 'conflict' })).records.map((r) => r.id)).toEqual([ids.deployNew]);
    expect((await browse({ status: 'unverified' })).total).toBe(26);
    expect((await browse({ status: 'stale' })).total).toBe(0);
    expect((await browse({ scope: 'shared' })).records.map((r) => r.content)).toEqual(
      [25, 20, 15, 10, 5].map((i) => `plain note number ${i}`),
    );
    expect((await browse({ factKey: 'deploy-staging' })).total).toBe(1);
    expect((await browse({ source: 'agent' })).total).toBe(27);
    expect((await browse({ source: 'dashboard' })).total).toBe(0);
    expect(await errorCode(browse({ status: 'verified' }))).toBe('BAD_REQUEST');
  });

  it('shows a record on its own page with its versions, what it conflicts with and its sources', async () => {
    const page = await owner.client.workspaces.record.query({ accountId, projectId, id: ids.deployOld ?? '' });
    expect(page.record.id).toBe(ids.deployOld);
    expect(page.versions.map((v) => v.id)).toEqual([ids.deployNew, ids.deployOld]);
    expect(page.conflictsWith.map((v) => v.content)).toEqual(['staging is deployed by the pipeline']);
    const summary = await owner.client.workspaces.record.query({ accountId, projectId, id: ids.summary ?? '' });
    expect(summary.sources).toEqual([{ id: ids.deployNew, preview: 'staging is deployed by the pipeline' }]);
    expect(summary.record.status).toBe('conflict');
    expect(await errorCode(owner.client.workspaces.record.query({ accountId, projectId, id: 'not-an-id' }))).toBe('NOT_FOUND');
  });

  it('lets an admin resolve a conflict by forgetting one version, and nobody else', async () => {
    const input = { accountId, projectId, keepId: ids.deployNew ?? '', forgetId: ids.deployOld ?? '' };
    expect(await errorCode(bob.client.workspaces.resolveConflict.mutate(input))).toBe('FORBIDDEN');
    expect(
      await errorCode(owner.client.workspaces.resolveConflict.mutate({ ...input, forgetId: ids.plain1 ?? '' })),
    ).toBe('BAD_REQUEST');
    const done = await owner.client.workspaces.resolveConflict.mutate(input);
    expect(done).toMatchObject({ id: ids.deployOld, forgotten: true });
    const page = await owner.client.workspaces.record.query({ accountId, projectId, id: ids.deployNew ?? '' });
    expect(page).toMatchObject({ record: { status: 'unverified' }, conflictsWith: [] });
    const audit = await owner.client.audit.list.query({ accountId, action: 'record.forgotten' });
    expect(audit.events[0]).toMatchObject({ targetId: ids.deployOld, data: { reason: `conflict resolved: kept ${ids.deployNew}` } });
    expect(await errorCode(owner.client.workspaces.resolveConflict.mutate(input))).toBe('NOT_FOUND');
  });
});

describe('what a reader may not see is not named either', () => {
  it('hides superseded_by and derived_from ids of records outside the reader’s visibility, and browse honours visibility', async () => {
    // Bob writes two versions of a fact_key in his own workspace, then makes it author-only; the
    // owner's summary in "notes" points to Bob's newest record while it was readable.
    await remember(bobMcp, 'bobOld', { workspace: 'bob-notes', content: 'the VPN is at vpn1', fact_key: 'vpn' });
    await remember(ownerMcp, 'ownerVpn', { workspace: 'bob-notes', content: 'the VPN is at vpn2', fact_key: 'vpn' });
    await remember(bobMcp, 'bobNew', { workspace: 'bob-notes', content: 'the VPN is at vpn3', fact_key: 'vpn' });
    await remember(ownerMcp, 'vpnSummary', { workspace: 'bob-notes', content: 'vpn summary', derived_from: [ids.bobNew, ids.ownerVpn] });
    const spaces = await owner.client.visibility.get.query({ accountId, projectId });
    const workspaceId = spaces.workspaces.find((space) => space.name === 'bob-notes')?.workspaceId ?? '';
    await owner.client.visibility.set.mutate({ accountId, projectId, workspaceId, rule: { mode: 'author', userIds: [], roles: [] } });

    const found = await ownerMcp.ok<{ result: Array<{ id: string; superseded_by: string | null; derived_from: string[] }> }>('search', {
      query: '',
      workspace: 'bob-notes',
    });
    const byId = new Map(found.result.map((row) => [row.id, row]));
    expect([...byId.keys()].sort()).toEqual([ids.ownerVpn, ids.vpnSummary].sort());
    expect(byId.get(ids.ownerVpn ?? '')?.superseded_by).toBeNull();
    expect(byId.get(ids.vpnSummary ?? '')?.derived_from).toEqual([ids.ownerVpn]);
    const browsed = await owner.client.workspaces.browse.query({ accountId, projectId, workspace: 'bob-notes' });
    expect(browsed.total).toBe(2);
    expect(browsed.records.find((r) => r.id === ids.ownerVpn)).toMatchObject({ superseded_by: null, versions: 1 });
    expect(await errorCode(owner.client.workspaces.record.query({ accountId, projectId, id: ids.bobNew ?? '' }))).toBe('NOT_FOUND');
    // Bob's older version was superseded by the owner's, which Bob may not read now: not named.
    const bobPage = await bob.client.workspaces.record.query({ accountId, projectId, id: ids.bobOld ?? '' });
    expect(bobPage.record.superseded_by).toBeNull();
    expect(bobPage.versions.map((v) => v.id)).toEqual([ids.bobNew, ids.bobOld]);
    expect(bobPage.conflictsWith.map((v) => v.id)).toEqual([ids.bobNew]);
  });
});
