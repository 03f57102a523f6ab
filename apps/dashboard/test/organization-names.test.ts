import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { errorCode, organizationWith, signUp, useDashboard } from './fixtures.ts';

const f = useDashboard();

const described = (error: unknown) => `${(error as { data?: { code?: string } }).data?.code ?? '?'}: ${(error as Error).message}`;

async function failure(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (error) {
    return described(error);
  }
  return 'no error';
}

describe('organizations: names, rename, delete', () => {
  it('refuses a second organization of one person with the same name, in any case', async () => {
    const person = await signUp(f, 'namer');
    await person.client.accounts.createOrganization.mutate({ name: 'Acme Labs' });
    expect(await failure(person.client.accounts.createOrganization.mutate({ name: '  acme labs ' }))).toBe(
      'CONFLICT: you already have an organization named "acme labs"; choose another name',
    );
    // Another person may use the name.
    const other = await signUp(f, 'othernamer');
    await other.client.accounts.createOrganization.mutate({ name: 'Acme Labs' });
  });

  it('makes one organization of two created at once with the same name, and answers the other with the clear error', async () => {
    const person = await signUp(f, 'racer');
    // Each round sends both creations together; the first one past the name check must not let the other in.
    for (const round of [1, 2, 3]) {
      const name = `Race Labs ${round}`;
      const outcomes = await Promise.allSettled([
        person.client.accounts.createOrganization.mutate({ name }),
        person.client.accounts.createOrganization.mutate({ name: name.toLowerCase() }),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(refused === undefined ? 'no error' : described(refused.reason)).toMatch(
        /^CONFLICT: you already have an organization named "race labs \d"; choose another name$/i,
      );
      const named = (await person.client.accounts.list.query()).filter((account) => account.name.toLowerCase() === name.toLowerCase());
      expect(named).toHaveLength(1);
    }
  });

  it('frees a name for its creator once they leave that organization', async () => {
    const org = await organizationWith(f, 'Departed', [{ name: 'stayer', role: 'admin' }]);
    const stayer = org.members.stayer;
    if (!stayer) throw new Error('admin missing');
    await org.owner.client.members.changeRole.mutate({ accountId: org.accountId, userId: stayer.userId, role: 'owner' });
    await org.owner.client.accounts.leave.mutate({ accountId: org.accountId });
    await org.owner.client.accounts.createOrganization.mutate({ name: 'Departed' });
  });

  it('lets the owner rename (not admins or members), never onto another of their names', async () => {
    const org = await organizationWith(f, 'Oldname', [{ name: 'adm', role: 'admin' }]);
    const { accountId, owner } = org;
    await owner.client.accounts.createOrganization.mutate({ name: 'Taken Name' });
    expect(await errorCode(org.members.adm?.client.accounts.rename.mutate({ accountId, name: 'Admin Says' }) ?? Promise.resolve())).toBe('FORBIDDEN');
    expect(await failure(owner.client.accounts.rename.mutate({ accountId, name: 'taken name' }))).toMatch(/^CONFLICT: you already have/);
    expect(await errorCode(owner.client.accounts.rename.mutate({ accountId, name: '   ' }))).toBe('BAD_REQUEST');
    expect(await errorCode(owner.client.accounts.rename.mutate({ accountId: owner.personalAccountId, name: 'Mine' }))).toBe('BAD_REQUEST');
    const renamed = await owner.client.accounts.rename.mutate({ accountId, name: 'New Name' });
    expect(renamed).toMatchObject({ id: accountId, name: 'New Name', kind: 'organization', role: 'owner' });
    // Renaming to its own name (another case) is no clash with itself.
    await owner.client.accounts.rename.mutate({ accountId, name: 'NEW NAME' });
    const listed = await org.members.adm?.client.accounts.list.query();
    expect(listed?.find((account) => account.id === accountId)?.name).toBe('NEW NAME');
    const audit = await owner.client.audit.list.query({ accountId, action: 'organization.renamed' });
    expect(audit.events.map((event) => event.data)).toEqual(
      expect.arrayContaining([{ from: 'Oldname', to: 'New Name' }, { from: 'New Name', to: 'NEW NAME' }]),
    );
  });

  it('deletes an organization only for its owner who types its name; its data goes, members keep their own accounts', async () => {
    const org = await organizationWith(f, 'Doomed', [{ name: 'adm', role: 'admin' }]);
    const { accountId, owner } = org;
    const adm = org.members.adm;
    if (!adm) throw new Error('admin missing');
    expect(await errorCode(adm.client.accounts.delete.mutate({ accountId, confirmName: 'Doomed' }))).toBe('FORBIDDEN');
    expect(await errorCode(owner.client.accounts.delete.mutate({ accountId, confirmName: 'doomed?' }))).toBe('BAD_REQUEST');
    await owner.client.accounts.delete.mutate({ accountId, confirmName: 'Doomed' });
    expect((await adm.client.accounts.list.query()).map((account) => account.id)).toEqual([adm.personalAccountId]);
    const [left] = await f.db.query<{ n: string }>('select count(*)::text as n from projects where account_id = $1', [accountId]);
    expect(left?.n).toBe('0');
    // The name is free again for its former owner.
    await owner.client.accounts.createOrganization.mutate({ name: 'Doomed' });
  });
});

describe('first run: the connection panel', () => {
  it('names the MCP endpoint and turns "first memory received" on with the first record', async () => {
    const { accountId, projectId, owner } = await organizationWith(f, 'Starters');
    expect(await owner.client.accounts.connection.query({ accountId })).toEqual({ mcpUrl: f.mcp.url, received: false });
    const { key } = await owner.client.keys.issue.mutate({ accountId, projectId, name: 'first key' });
    const mcp = await connectMcp(f.mcp.url, key);
    await mcp.ok('remember', { content: 'the first memory of Starters' });
    expect(await owner.client.accounts.connection.query({ accountId })).toEqual({ mcpUrl: f.mcp.url, received: true });
    const stranger = await signUp(f, 'stranger');
    expect(await errorCode(stranger.client.accounts.connection.query({ accountId }))).toBe('NOT_FOUND');
  });
});
