import { beforeAll, describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { errorCode, organizationWith, useDashboard, type SignedIn } from './fixtures.ts';

const f = useDashboard();

let accountId = '';
let projectId = '';
const people = {} as Record<'owner' | 'ann' | 'bob', SignedIn>;
const keys = {} as Record<'owner' | 'ann' | 'bob', string>;

async function upload(key: string, externalId: string, text: string) {
  const response = await fetch(f.mcp.url.replace(/\/mcp$/, '/sessions/upload'), {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      batch_id: `batch-${externalId}`,
      sessions: [
        {
          tool: 'codex',
          external_id: externalId,
          project_path: `/home/${externalId}`,
          messages: [{ key: 'm1', role: 'user', content: text, at: '2026-11-03T10:00:00Z' }],
        },
      ],
    }),
  });
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  const org = await organizationWith(f, 'Sessions', [
    { name: 'ann', role: 'member' },
    { name: 'bob', role: 'member' },
  ]);
  accountId = org.accountId;
  projectId = org.projectId;
  people.owner = org.owner;
  people.ann = org.members.ann as SignedIn;
  people.bob = org.members.bob as SignedIn;
  for (const name of ['owner', 'ann', 'bob'] as const) {
    keys[name] = (
      await people[name].client.keys.issue.mutate({ accountId, projectId, name: `${name} laptop` })
    ).key;
    await upload(keys[name], `${name}-session`, `${name} talked about the puffin migration`);
  }
});

const listed = async (name: 'owner' | 'ann' | 'bob') =>
  (await people[name].client.sessions.list.query({ accountId, projectId }))
    .map((session) => session.projectPath)
    .sort();

describe('uploaded sessions in the dashboard', () => {
  it('a member lists their own sessions; the owner lists every one', async () => {
    expect(await listed('ann')).toEqual(['/home/ann-session']);
    expect(await listed('owner')).toEqual(['/home/ann-session', '/home/bob-session', '/home/owner-session']);
  });

  it("a member cannot delete another's session; the uploader and the owner can, audited", async () => {
    const all = await people.owner.client.sessions.list.query({ accountId, projectId });
    const annSession = all.find((session) => session.projectPath === '/home/ann-session');
    const bobSession = all.find((session) => session.projectPath === '/home/bob-session');
    expect(
      await errorCode(
        people.bob.client.sessions.delete.mutate({ accountId, sessionId: annSession?.id ?? '' }),
      ),
    ).toBe('NOT_FOUND');
    await people.ann.client.sessions.delete.mutate({ accountId, sessionId: annSession?.id ?? '' });
    await people.owner.client.sessions.delete.mutate({ accountId, sessionId: bobSession?.id ?? '' });
    expect(await listed('owner')).toEqual(['/home/owner-session']);
    const mcp = await connectMcp(f.mcp.url, keys.ann);
    try {
      expect(
        (await mcp.ok<{ result: unknown[] }>('search_sessions', { query: 'puffin' })).result,
      ).toHaveLength(0);
    } finally {
      await mcp.close();
    }
    const audit = await f.db.query<{ action: string }>(
      "select action from audit_events where action = 'sessions.deleted'",
    );
    expect(audit).toHaveLength(2);
  });
});
