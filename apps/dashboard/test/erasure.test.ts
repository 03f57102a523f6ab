import { connectMcp, drainJobs } from '@mmw/test-support';
import { beforeAll, describe, expect, it } from 'vitest';
import { dumpData } from './pg-dump.ts';
import { errorCode, organizationWith, PASSWORD, signUp, useDashboard, type Organization, type SignedIn } from './fixtures.ts';
import { dashboardClient } from './dashboard-client.ts';

const f = useDashboard();

interface Rec {
  id: string;
  content: string;
}

/** A distinctive string: found in a dump only if the purged content is still stored somewhere. */
const MARKER = 'quillfeather8841';

let org: Organization & { members: Record<string, SignedIn> };
let key = '';

async function remember(content: string, workspace: string, headers: Record<string, string> = {}): Promise<Rec> {
  const mcp = await connectMcp(f.mcp.url, key, headers);
  try {
    return await mcp.ok<Rec>('remember', { content, workspace });
  } finally {
    await mcp.close();
  }
}

async function search(workspace: string, query: string) {
  return org.owner.client.workspaces.search.query({ accountId: org.accountId, projectId: org.projectId, workspace, query });
}

beforeAll(async () => {
  org = await organizationWith(f, 'ErasureCo', [
    { name: 'admin', role: 'admin' },
    { name: 'member', role: 'member' },
  ]);
  key = (await org.owner.client.keys.issue.mutate({ accountId: org.accountId, projectId: org.projectId, name: 'erasure' })).key;
});

describe('purging a record', () => {
  it('removes a pending archivist job and the idempotency answer with the record', async () => {
    const rec = await remember(`the courier for ${MARKER} is booked`, 'pending', { 'x-idempotency-key': 'purge-pending-1' });
    // Waiting in the archivist's intake (no worker runs here), or already a job.
    const jobsOf = () =>
      f.db.query(
        `select id::text from pgboss.job where data->'payload'->>'recordId' = $1
         union all select record_id::text from archivist_pending where record_id::text = $1`,
        [rec.id],
      );
    const answersOf = () => f.db.query('select key from idempotency_entries where record_id = $1', [rec.id]);
    expect(await jobsOf()).toHaveLength(1);
    expect(await answersOf()).toHaveLength(1);
    await org.owner.client.workspaces.purge.mutate({ accountId: org.accountId, projectId: org.projectId, id: rec.id, confirmId: rec.id });
    expect(await jobsOf()).toHaveLength(0);
    expect(await answersOf()).toHaveLength(0);
    expect(await f.db.query('select id from records where id = $1', [rec.id])).toHaveLength(0);
  });

  it('is refused to a member, and without the typed id, and changes nothing then', async () => {
    const rec = await remember(`the shelf code of ${MARKER} is 12`, 'refused');
    const member = org.members.member;
    if (!member) throw new Error('no member');
    const input = { accountId: org.accountId, projectId: org.projectId, id: rec.id };
    expect(await errorCode(member.client.workspaces.purge.mutate({ ...input, confirmId: rec.id }))).toBe('FORBIDDEN');
    expect(await errorCode(org.owner.client.workspaces.purge.mutate({ ...input, confirmId: 'wrong' }))).toBe('BAD_REQUEST');
    expect((await search('refused', '')).result.map((r) => r.id)).toContain(rec.id);
    // Cleaned up by an admin, which is allowed.
    await org.members.admin?.client.workspaces.purge.mutate({ ...input, confirmId: rec.id });
    expect((await search('refused', '')).result.map((r) => r.id)).not.toContain(rec.id);
  });

  it('leaves no trace of the content in the database: not in the row, relations, previews or marks; the audit keeps the fact', async () => {
    await f.mcp.runtime.startWorker();
    const older = await remember('The primary database host is db-primary-1.internal', 'graph');
    await drainJobs(f.db);
    const leaked = await remember(`The primary database host is now ${MARKER}-3.internal`, 'graph');
    await drainJobs(f.db);
    await org.owner.client.workspaces.forget.mutate({ accountId: org.accountId, projectId: org.projectId, id: leaked.id });
    // Before: the dump holds the marker, and the older record's mark names the leaked one.
    expect(await dumpData(f.db.url)).toContain(MARKER);
    const [marked] = await f.db.query<{ archivist_reason: string | null }>('select archivist_reason from records where id = $1', [older.id]);
    expect(marked?.archivist_reason).toContain(leaked.id);
    expect(await f.db.query('select id from record_relations where from_record_id = $1 or to_record_id = $1', [leaked.id])).not.toHaveLength(0);

    const purged = await org.owner.client.workspaces.purge.mutate({
      accountId: org.accountId,
      projectId: org.projectId,
      id: leaked.id,
      confirmId: leaked.id,
    });
    expect(purged).toEqual({ id: leaked.id, purged: true });

    expect(await dumpData(f.db.url)).not.toContain(MARKER);
    const view = (await search('graph', 'primary database host')).result.find((r) => r.id === older.id);
    expect(view?.graph_relations.map((g) => g.target_id)).not.toContain(leaked.id);
    expect(view?.status).toBe('unverified');
    const audit = await org.owner.client.audit.list.query({ accountId: org.accountId, action: 'record.purged' });
    expect(audit.events.find((e) => e.targetId === leaked.id)).toMatchObject({ actorUserId: org.owner.userId });
    expect(
      await errorCode(org.owner.client.workspaces.purge.mutate({ accountId: org.accountId, projectId: org.projectId, id: leaked.id, confirmId: leaked.id })),
    ).toBe('NOT_FOUND');
  });
});

describe('deleting an account', () => {
  it('offers the owner an export of the records as JSON Lines; a member gets none', async () => {
    const rec = await remember('the office plant is watered on fridays', 'export');
    const page = await org.owner.client.accounts.exportRecords.query({ accountId: org.accountId });
    const lines = page.jsonl.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; content: string; workspace: string });
    expect(lines).toContainEqual(expect.objectContaining({ id: rec.id, content: rec.content, workspace: 'export' }));
    expect(page.nextAfter).toBeNull();
    expect(await errorCode(org.members.member?.client.accounts.exportRecords.query({ accountId: org.accountId }) ?? Promise.resolve())).toBe(
      'FORBIDDEN',
    );
  });

  it('deletes an organization for good: data gone from a dump, keys dead, only the deletion fact kept', async () => {
    const doomed = await organizationWith(f, 'DoomedLtd', [{ name: 'colleague', role: 'admin' }]);
    const doomedKey = (await doomed.owner.client.keys.issue.mutate({ accountId: doomed.accountId, projectId: doomed.projectId, name: 'k' })).key;
    const mcp = await connectMcp(f.mcp.url, doomedKey, { 'x-idempotency-key': 'doomed-1' });
    await mcp.ok('remember', { content: `the doomed plan mentions ${MARKER}-org` });
    await mcp.close();
    expect(await dumpData(f.db.url)).toContain(`${MARKER}-org`);

    const colleague = doomed.members.colleague;
    if (!colleague) throw new Error('no colleague');
    expect(await errorCode(colleague.client.accounts.delete.mutate({ accountId: doomed.accountId, confirmName: 'DoomedLtd' }))).toBe('FORBIDDEN');
    expect(await errorCode(doomed.owner.client.accounts.delete.mutate({ accountId: doomed.accountId, confirmName: 'Doomed' }))).toBe('BAD_REQUEST');
    await doomed.owner.client.accounts.delete.mutate({ accountId: doomed.accountId, confirmName: 'DoomedLtd' });

    const dump = await dumpData(f.db.url);
    expect(dump).not.toContain(`${MARKER}-org`);
    // The people stay (they have accounts of their own); the organization's name does not.
    expect(dump).not.toMatch(/\tDoomedLtd\t/);
    for (const table of ['accounts', 'projects', 'workspaces', 'records', 'api_keys', 'memberships', 'audit_events', 'idempotency_entries', 'subscriptions', 'account_usage']) {
      expect(await f.db.query(`select 1 from ${table} where account_id = $1`, [doomed.accountId]), table).toHaveLength(0);
    }
    expect(await f.db.query("select 1 from pgboss.job where data->'payload'->>'accountId' = $1", [doomed.accountId])).toHaveLength(0);
    expect(await f.db.query('select kind, deleted_by from account_deletions where account_id = $1', [doomed.accountId])).toEqual([
      { kind: 'organization', deleted_by: doomed.owner.userId },
    ]);
    const dead = await fetch(f.mcp.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${doomedKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(dead.status).toBe(401);
    expect((await colleague.client.accounts.list.query()).map((a) => a.id)).not.toContain(doomed.accountId);
  });

  it('deletes a personal account and closes the sign-in; refused while the user is in an organization', async () => {
    const person = await signUp(f, 'leaving');
    const joined = org.members.member;
    if (!joined) throw new Error('no member');
    const [joinedPersonal] = (await joined.client.accounts.list.query()).filter((a) => a.kind === 'personal');
    expect(
      await errorCode(joined.client.accounts.delete.mutate({ accountId: joinedPersonal?.id ?? '', confirmName: joinedPersonal?.name ?? '' })),
    ).toBe('CONFLICT');

    const [project] = await person.client.projects.list.query({ accountId: person.personalAccountId });
    const personalKey = (await person.client.keys.issue.mutate({ accountId: person.personalAccountId, projectId: project?.id ?? '', name: 'p' })).key;
    const mcp = await connectMcp(f.mcp.url, personalKey);
    await mcp.ok('remember', { content: `my own note about ${MARKER}-me` });
    await mcp.close();
    const [personal] = (await person.client.accounts.list.query()).filter((a) => a.kind === 'personal');
    await person.client.accounts.delete.mutate({ accountId: person.personalAccountId, confirmName: personal?.name ?? '' });

    const dump = await dumpData(f.db.url);
    expect(dump).not.toContain(`${MARKER}-me`);
    expect(dump).not.toContain(person.email);
    expect(await person.client.auth.me.query()).toBeNull();
    const { client } = dashboardClient(f.url);
    expect(await errorCode(client.auth.signIn.mutate({ email: person.email, password: PASSWORD }))).toBe('UNAUTHORIZED');
  });
});
