import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { errorCode, organizationWith, useDashboard } from './fixtures.ts';

const f = useDashboard();
type Found = { result: Array<{ content: string }> };

describe('a key acts for the person who issued it', () => {
  it("an owner's key cannot read or write as a colleague; a key request gives the colleague a key of their own", async () => {
    const org = await organizationWith(f, 'Holders', [{ name: 'bob', role: 'member' }]);
    const bob = org.members.bob;
    if (!bob) throw new Error('bob missing');
    const { accountId, projectId } = org;
    const bobKey = await bob.client.keys.issue.mutate({ accountId, projectId, name: 'bob laptop' });
    const bobAgent = await connectMcp(f.mcp.url, bobKey.key);
    await bobAgent.ok('remember', { content: 'bob private salary note', workspace: 'bob-notes' });
    const spaces = await org.owner.client.workspaces.list.query({ accountId, projectId });
    const workspaceId = spaces.find((space) => space.name === 'bob-notes')?.id ?? '';
    await org.owner.client.visibility.set.mutate({ accountId, projectId, workspaceId, rule: { mode: 'author', userIds: [], roles: [] } });

    // The owner names Bob as the key's member, as the "Acts for" field did: the key is the owner's.
    const actingFor = { accountId, projectId, name: 'for bob', userId: bob.userId } as unknown as Parameters<
      typeof org.owner.client.keys.issue.mutate
    >[0];
    const ownerKey = await org.owner.client.keys.issue.mutate(actingFor);
    expect(ownerKey.summary.userEmail).toBe(org.owner.email);
    const ownerAgent = await connectMcp(f.mcp.url, ownerKey.key);
    expect((await ownerAgent.ok<Found>('search', { query: 'salary', workspace: 'bob-notes' })).result).toEqual([]);
    await ownerAgent.ok('remember', { content: 'owner wrote this in bob-notes', workspace: 'bob-notes' });
    const bobSees = await bobAgent.ok<Found>('search', { query: '', workspace: 'bob-notes' });
    expect(bobSees.result.map((row) => row.content)).toEqual(['bob private salary note']);

    // A key request: Bob accepts, sees the key once, and it reads what Bob reads.
    const request = await org.owner.client.keys.request.mutate({ accountId, projectId, name: 'set up for bob', userId: bob.userId });
    expect(await errorCode(org.owner.client.keys.acceptRequest.mutate({ accountId, requestId: request.id }))).toBe('NOT_FOUND');
    expect(await errorCode(bob.client.keys.request.mutate({ accountId, projectId, name: 'x', userId: org.owner.userId }))).toBe('FORBIDDEN');
    const pending = await bob.client.keys.requests.query({ accountId });
    expect(pending.map((row) => row.id)).toEqual([request.id]);
    const accepted = await bob.client.keys.acceptRequest.mutate({ accountId, requestId: request.id });
    expect(accepted.summary).toMatchObject({ userEmail: bob.email, createdByEmail: bob.email, name: 'set up for bob' });
    expect(await errorCode(bob.client.keys.acceptRequest.mutate({ accountId, requestId: request.id }))).toBe('NOT_FOUND');
    expect(await bob.client.keys.requests.query({ accountId })).toEqual([]);
    const requested = await connectMcp(f.mcp.url, accepted.key);
    expect((await requested.ok<Found>('search', { query: 'salary', workspace: 'bob-notes' })).result).toHaveLength(1);
    await Promise.all([bobAgent.close(), ownerAgent.close(), requested.close()]);
  });
});
