import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { errorCode, organizationWith, useDashboard } from './fixtures.ts';

const f = useDashboard();

describe('the audit log', () => {
  it('pages newest first, filters by actor, action and time, exports CSV, and is closed to members', async () => {
    const org = await organizationWith(f, 'Audited', [{ name: 'member', role: 'member' }]);
    const member = org.members.member;
    if (!member) throw new Error('member missing');
    const accountId = org.accountId;
    for (const name of ['one', 'two', 'three']) await org.owner.client.projects.create.mutate({ accountId, name });
    await member.client.keys.issue.mutate({ accountId, projectId: org.projectId, name: 'member key' });

    const all = await org.owner.client.audit.list.query({ accountId, limit: 100 });
    const ids = all.events.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const first = await org.owner.client.audit.list.query({ accountId, limit: 2 });
    expect(first.events.map((event) => event.id)).toEqual(ids.slice(0, 2));
    const second = await org.owner.client.audit.list.query({ accountId, limit: 2, cursor: first.nextCursor ?? undefined });
    expect(second.events.map((event) => event.id)).toEqual(ids.slice(2, 4));
    const last = await org.owner.client.audit.list.query({ accountId, limit: 100, cursor: ids.at(-2) });
    expect(last).toEqual({ events: [expect.objectContaining({ id: ids.at(-1) })], nextCursor: null });

    const byMember = await org.owner.client.audit.list.query({ accountId, actorUserId: member.userId });
    expect(new Set(byMember.events.map((event) => event.action))).toEqual(new Set(['member.joined', 'key.issued']));
    const created = await org.owner.client.audit.list.query({ accountId, action: 'project.created' });
    expect(created.events.map((event) => event.data.name)).toEqual(['three', 'two', 'one']);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await org.owner.client.audit.list.query({ accountId, from: future })).events).toEqual([]);
    expect((await org.owner.client.audit.list.query({ accountId, to: future })).events).toHaveLength(ids.length);

    const file = await org.owner.client.audit.exportCsv.query({ accountId, action: 'project.created' });
    expect(file.filename).toMatch(/^mmw-audit-\d{4}-\d{2}-\d{2}\.csv$/);
    const rows = parse<Record<string, string>>(file.csv, { columns: true });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({
      action: 'project.created',
      actor: org.owner.email,
      actor_name: 'Audited-owner',
      target_type: 'project',
      target: 'three',
    });
    expect(JSON.parse(rows[0]?.data ?? '{}')).toEqual({ name: 'three' });

    expect(await errorCode(member.client.audit.list.query({ accountId }))).toBe('FORBIDDEN');
    expect(await errorCode(member.client.audit.exportCsv.query({ accountId }))).toBe('FORBIDDEN');
  });

  it('names the actor and the target of every row: whose role changed, which project, which key', async () => {
    const org = await organizationWith(f, 'Named', [{ name: 'mia', role: 'member' }]);
    const mia = org.members.mia;
    if (!mia) throw new Error('member missing');
    const accountId = org.accountId;
    await org.owner.client.members.changeRole.mutate({ accountId, userId: mia.userId, role: 'admin' });
    await org.owner.client.keys.issue.mutate({ accountId, projectId: org.projectId, name: 'ci runner' });
    const { events } = await org.owner.client.audit.list.query({ accountId, limit: 100 });
    const changed = events.find((event) => event.action === 'member.role_changed');
    expect(changed).toMatchObject({ actorName: 'Named-owner', actorEmail: org.owner.email, targetName: `mia <${mia.email}>`, data: { from: 'member', to: 'admin' } });
    expect(events.find((event) => event.action === 'key.issued')).toMatchObject({ targetType: 'api_key', targetName: 'ci runner' });
    expect(events.every((event) => event.targetType === null || event.targetName !== null)).toBe(true);
  });

  it('exports cells that a spreadsheet would run as formulas as plain text', async () => {
    const org = await organizationWith(f, 'Formulas');
    const accountId = org.accountId;
    for (const name of ['=HYPERLINK("http://x.example")', '+1+1', '-2', '@SUM(A1)'])
      await org.owner.client.projects.create.mutate({ accountId, name });
    const file = await org.owner.client.audit.exportCsv.query({ accountId, action: 'project.created' });
    const rows = parse<Record<string, string>>(file.csv, { columns: true });
    expect(rows.map((row) => row.target)).toEqual([`'@SUM(A1)`, `'-2`, `'+1+1`, `'=HYPERLINK("http://x.example")`]);
    for (const row of rows) expect(row.data).toMatch(/^\{/);
  });

  it('stays append-only for the application role', async () => {
    const rows = await f.db.query<{ update: boolean; delete: boolean; insert: boolean }>(
      "select has_table_privilege('mmw_app', 'audit_events', 'UPDATE') as update, has_table_privilege('mmw_app', 'audit_events', 'DELETE') as delete, has_table_privilege('mmw_app', 'audit_events', 'INSERT') as insert",
    );
    expect(rows).toEqual([{ update: false, delete: false, insert: true }]);
  });
});
