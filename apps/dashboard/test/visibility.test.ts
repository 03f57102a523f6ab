import { beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpTestClient } from '@mmw/test-support';
import { errorCode, organizationWith, useDashboard, type SignedIn } from './fixtures.ts';

const f = useDashboard();

type Rule = {
  mode: 'organization' | 'listed' | 'author';
  userIds: string[];
  roles: Array<'owner' | 'admin' | 'member'>;
};
type Found = { result: Array<{ id: string; content: string; status: string }> };

interface Person {
  name: 'owner' | 'admin' | 'ann' | 'bob';
  web: SignedIn;
  mcp: McpTestClient;
}

let accountId = '';
let projectId = '';
let opsWorkspaceId = '';
const people = {} as Record<Person['name'], Person>;
const written = {} as Record<Person['name'], string>;

/** What each person finds in workspace "ops", through MCP search and through the dashboard. */
async function seenBy(name: Person['name']): Promise<{ mcp: string[]; web: string[]; count: number }> {
  const person = people[name];
  const viaMcp = await person.mcp.ok<Found>('search', { query: '', workspace: 'ops', limit: 50 });
  const viaWeb = await person.web.client.workspaces.search.query({
    accountId,
    projectId,
    workspace: 'ops',
    query: '',
    limit: 50,
  });
  const spaces = await person.web.client.workspaces.list.query({ accountId, projectId });
  const names = (rows: Array<{ content: string }>) =>
    rows.map((row) => row.content.split(' ')[0] ?? '').sort();
  return {
    mcp: names(viaMcp.result),
    web: names(viaWeb.result),
    count: spaces.find((space) => space.name === 'ops')?.recordCount ?? -1,
  };
}

async function expectSeen(name: Person['name'], authors: string[]): Promise<void> {
  const seen = await seenBy(name);
  expect({ who: name, ...seen }).toEqual({
    who: name,
    mcp: [...authors].sort(),
    web: [...authors].sort(),
    count: authors.length,
  });
}

async function setOps(rule: Rule | null): Promise<void> {
  await people.owner.web.client.visibility.set.mutate({
    accountId,
    projectId,
    workspaceId: opsWorkspaceId,
    rule,
  });
}

beforeAll(async () => {
  const org = await organizationWith(f, 'Visible', [
    { name: 'admin', role: 'admin' },
    { name: 'ann', role: 'member' },
    { name: 'bob', role: 'member' },
  ]);
  accountId = org.accountId;
  projectId = org.projectId;
  const webs: Record<Person['name'], SignedIn | undefined> = {
    owner: org.owner,
    admin: org.members.admin,
    ann: org.members.ann,
    bob: org.members.bob,
  };
  for (const name of ['owner', 'admin', 'ann', 'bob'] as const) {
    const web = webs[name];
    if (!web) throw new Error(`${name} missing`);
    const { key } = await web.client.keys.issue.mutate({ accountId, projectId, name: `${name} laptop` });
    const mcp = await connectMcp(f.mcp.url, key);
    const record = await mcp.ok<{ id: string }>('remember', {
      content: `${name} wrote this about the release train`,
      workspace: 'ops',
      source_id: 'docs/release.md',
      source_hash: 'sha256:1',
    });
    written[name] = record.id;
    people[name] = { name, web, mcp };
  }
  const spaces = await org.owner.client.workspaces.list.query({ accountId, projectId });
  opsWorkspaceId = spaces.find((space) => space.name === 'ops')?.id ?? '';
});

describe('visibility, through the MCP door and the dashboard door', () => {
  it('lets the whole organization read by default', async () => {
    for (const name of ['owner', 'admin', 'ann', 'bob'] as const)
      await expectSeen(name, ['owner', 'admin', 'ann', 'bob']);
  });

  it('"author only": everyone, owners included, reads only what they wrote', async () => {
    await setOps({ mode: 'author', userIds: [], roles: [] });
    for (const name of ['owner', 'admin', 'ann', 'bob'] as const) await expectSeen(name, [name]);
  });

  it('"listed members and roles": listed roles and members read everything, others their own', async () => {
    await setOps({ mode: 'listed', userIds: [people.bob.web.userId], roles: ['admin'] });
    await expectSeen('admin', ['owner', 'admin', 'ann', 'bob']);
    await expectSeen('bob', ['owner', 'admin', 'ann', 'bob']);
    await expectSeen('ann', ['ann']);
    await expectSeen('owner', ['owner']);
  });

  it('follows the project default when the workspace has no rule of its own, and the workspace rule overrides it', async () => {
    await setOps(null);
    await people.owner.web.client.visibility.set.mutate({
      accountId,
      projectId,
      rule: { mode: 'author', userIds: [], roles: [] },
    });
    await expectSeen('ann', ['ann']);
    const rules = await people.ann.web.client.visibility.get.query({ accountId, projectId });
    expect(rules.workspaces.find((space) => space.name === 'ops')).toMatchObject({
      rule: null,
      effective: { mode: 'author' },
    });
    await setOps({ mode: 'organization', userIds: [], roles: [] });
    await expectSeen('ann', ['owner', 'admin', 'ann', 'bob']);
    await people.owner.web.client.visibility.set.mutate({ accountId, projectId, rule: null });
  });

  it('honours the rule in validate_memory, forget and fact_key versions', async () => {
    await setOps({ mode: 'author', userIds: [], roles: [] });
    const report = await people.ann.mcp.ok<{ checked: number; stale: Array<{ id: string }> }>(
      'validate_memory',
      {
        source_id: 'docs/release.md',
        current_source_hash: 'sha256:2',
        workspace: 'ops',
      },
    );
    expect(report.checked).toBe(1);
    expect(report.stale.map((row) => row.id)).toEqual([written.ann]);
    const forget = await people.ann.mcp.call('forget', { id: written.bob });
    expect(forget.isError).toBe(true);
    expect(
      await errorCode(
        people.ann.web.client.workspaces.forget.mutate({ accountId, projectId, id: written.bob }),
      ),
    ).toBe('NOT_FOUND');
    await setOps({ mode: 'organization', userIds: [], roles: [] });
  });

  it("keeps a summary's inherited status to the sources the reader may see", async () => {
    const first = await people.bob.mcp.ok<{ id: string }>('remember', {
      content: 'bob says trains leave at nine',
      workspace: 'ops',
      fact_key: 'train-time',
    });
    await people.bob.mcp.ok('remember', {
      content: 'bob now says trains leave at ten',
      workspace: 'ops',
      fact_key: 'train-time',
    });
    const summary = await people.ann.mcp.ok<{ id: string }>('remember', {
      content: 'ann summary of the train times',
      workspace: 'ops',
      derived_from: [first.id],
    });
    const status = async () =>
      (
        await people.ann.mcp.ok<Found>('search', { query: 'summary train times', workspace: 'ops' })
      ).result.find((row) => row.id === summary.id)?.status;
    expect(await status()).toBe('conflict');
    await setOps({ mode: 'author', userIds: [], roles: [] });
    expect(await status()).toBe('unverified');
    const versions = await people.ann.web.client.workspaces.versions.query({
      accountId,
      projectId,
      workspace: 'ops',
      factKey: 'train-time',
    });
    expect(versions).toEqual([]);
    expect(
      (
        await people.bob.web.client.workspaces.versions.query({
          accountId,
          projectId,
          workspace: 'ops',
          factKey: 'train-time',
        })
      ).map((row) => row.content),
    ).toEqual(['bob now says trains leave at ten', 'bob says trains leave at nine']);
    await setOps({ mode: 'organization', userIds: [], roles: [] });
  });

  it('takes two admins saving the same rule at the same instant, the later one winning', async () => {
    const ruleOf = (mode: Rule['mode']) => ({ mode, userIds: [], roles: [] });
    for (const workspaceId of [opsWorkspaceId, undefined]) {
      const saves = (['author', 'organization', 'author', 'organization'] as const).map((mode, i) =>
        (i % 2 === 0 ? people.owner : people.admin).web.client.visibility.set.mutate({
          accountId,
          projectId,
          ...(workspaceId === undefined ? {} : { workspaceId }),
          rule: ruleOf(mode),
        }),
      );
      expect((await Promise.allSettled(saves)).map((save) => save.status)).toEqual(
        Array(4).fill('fulfilled'),
      );
    }
    const rules = await people.owner.web.client.visibility.get.query({ accountId, projectId });
    expect(JSON.stringify(rules)).toMatch(/author|organization/);
    await people.owner.web.client.visibility.set.mutate({ accountId, projectId, rule: null });
    await setOps({ mode: 'organization', userIds: [], roles: [] });
  });

  it('lets only admins change rules, and audits each change', async () => {
    const rule = { mode: 'author' as const, userIds: [], roles: [] };
    expect(await errorCode(people.ann.web.client.visibility.set.mutate({ accountId, projectId, rule }))).toBe(
      'FORBIDDEN',
    );
    const events = await people.owner.web.client.audit.list.query({
      accountId,
      action: 'visibility.changed',
    });
    expect(events.events.length).toBeGreaterThanOrEqual(6);
    expect(events.events[0]?.data).toMatchObject({ mode: 'organization' });
  });
});

describe('handover', () => {
  it("gives a leaver's author-only records to the receiver, keeps their author, and audits reads as counts", async () => {
    await setOps({ mode: 'author', userIds: [], roles: [] });
    await people.owner.web.client.members.remove.mutate({
      accountId,
      userId: people.ann.web.userId,
      receiverUserId: people.bob.web.userId,
    });
    // ann wrote a note and a summary; bob wrote a note and two train times.
    await expectSeen('bob', ['ann', 'ann', 'bob', 'bob', 'bob']);
    await expectSeen('admin', ['admin']);
    const [author] = await f.db.query<{ author_user_id: string }>(
      'select author_user_id from records where id = $1',
      [written.ann],
    );
    expect(author?.author_user_id).toBe(people.ann.web.userId);

    const reads = await people.owner.web.client.audit.list.query({ accountId, action: 'handover.read' });
    expect(reads.events.length).toBeGreaterThanOrEqual(2);
    for (const event of reads.events) {
      expect(Object.keys(event.data).sort()).toEqual(['count', 'via']);
      expect(event.data.count).toBe(2);
    }
    expect(JSON.stringify(reads.events)).not.toContain('release train');
    const handovers = await people.admin.web.client.handover.list.query({ accountId });
    expect(handovers.map((row) => [row.fromEmail, row.toEmail])).toEqual([
      [people.ann.web.email, people.bob.web.email],
    ]);
  });

  it('hands over later, for someone who already left, and passes on what they had received', async () => {
    await people.owner.web.client.members.remove.mutate({ accountId, userId: people.bob.web.userId });
    expect(
      await errorCode(
        people.admin.web.client.handover.create.mutate({
          accountId,
          fromUserId: people.bob.web.userId,
          toUserId: people.ann.web.userId,
        }),
      ),
    ).toBe('NOT_FOUND');
    await people.admin.web.client.handover.create.mutate({
      accountId,
      fromUserId: people.bob.web.userId,
      toUserId: people.admin.web.userId,
    });
    await expectSeen('admin', ['admin', 'ann', 'ann', 'bob', 'bob', 'bob']);
    await expectSeen('owner', ['owner']);
  });
});
