import { connectMcp } from '@mmw/test-support';
import { describe, expect, it } from 'vitest';
import { organizationWith, useDashboard } from './fixtures.ts';

const f = useDashboard();

describe('two admins saving the same rule at once', () => {
  it('both get an answer, never a server error, and one of the rules holds', async () => {
    const org = await organizationWith(f, 'Racing', [{ name: 'ada', role: 'admin' }]);
    const ada = org.members.ada;
    if (!ada) throw new Error('admin missing');
    const { accountId, projectId } = org;
    const { key } = await org.owner.client.keys.issue.mutate({ accountId, projectId, name: 'k' });
    const mcp = await connectMcp(f.mcp.url, key);
    await mcp.ok('remember', { content: 'a record that makes workspace ops', workspace: 'ops' });
    await mcp.close();
    const rules = await org.owner.client.visibility.get.query({ accountId, projectId });
    const workspaceId = rules.workspaces.find((space) => space.name === 'ops')?.workspaceId ?? '';
    const author = { mode: 'author' as const, userIds: [], roles: [] };
    const listed = { mode: 'listed' as const, userIds: [ada.userId], roles: ['admin' as const] };
    // The first save of a rule races too: both insert the same row.
    for (const target of [{ workspaceId }, {}]) {
      const saves = Array.from({ length: 12 }, (_, i) =>
        (i % 2 === 0 ? org.owner : ada).client.visibility.set.mutate({
          accountId,
          projectId,
          ...target,
          rule: i % 3 === 0 ? null : i % 3 === 1 ? author : listed,
        }),
      );
      const answers = await Promise.allSettled(saves);
      expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 12 }, () => 'fulfilled'));
    }
    const after = await ada.client.visibility.get.query({ accountId, projectId });
    expect(['organization', 'author', 'listed']).toContain(after.workspaces[0]?.effective.mode);
  });
});
