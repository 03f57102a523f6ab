import { and, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import { auditEvents, users, withTenant, type Db } from '@mmw/db';
import { stringify } from 'csv-stringify/sync';
import { z } from 'zod';
import { assertAdmin, type Member } from '../orgs/member.ts';

export const auditFilterSchema = z.object({
  actorUserId: z.uuid().optional(),
  action: z.string().trim().max(100).optional(),
  from: z.iso.datetime({ offset: true }).optional(),
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditFilter = z.infer<typeof auditFilterSchema>;

export const auditEventSchema = z.object({
  id: z.number(),
  createdAt: z.string(),
  action: z.string(),
  actorUserId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  actorName: z.string().nullable(),
  actorKeyId: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** What the target is called: a member's name and email, a project's, workspace's or key's name. */
  targetName: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
});
export type AuditEventView = z.infer<typeof auditEventSchema>;

export const AUDIT_PAGE_MAX = 100;
const EXPORT_MAX = 50_000;

function conditions(accountId: string, filter: AuditFilter, before?: number): SQL | undefined {
  return and(
    eq(auditEvents.accountId, accountId),
    filter.actorUserId === undefined ? undefined : eq(auditEvents.actorUserId, filter.actorUserId),
    filter.action === undefined || filter.action === '' ? undefined : eq(auditEvents.action, filter.action),
    filter.from === undefined ? undefined : gte(auditEvents.createdAt, new Date(filter.from)),
    filter.to === undefined ? undefined : lte(auditEvents.createdAt, new Date(filter.to)),
    before === undefined ? undefined : lt(auditEvents.id, before),
  );
}

/**
 * The target's name, looked up in the statement that reads the event, within the account: people by
 * their name and email (only those who are or were members, or who signed up through this account),
 * the rest by their own name. A record is named by the start of its id, never by its content.
 */
const targetName = sql<string | null>`case ${auditEvents.targetType}
  when 'user' then (select coalesce(u.name || ' <' || u.email || '>', u.email) from users u
    where u.id::text = ${auditEvents.targetId} and exists (select 1 from memberships m
      where m.account_id = ${auditEvents.accountId} and m.user_id = u.id))
  when 'project' then (select p.name from projects p
    where p.id::text = ${auditEvents.targetId} and p.account_id = ${auditEvents.accountId})
  when 'workspace' then (select w.name from workspaces w
    where w.id::text = ${auditEvents.targetId} and w.account_id = ${auditEvents.accountId})
  when 'api_key' then (select k.name from api_keys k
    where k.id::text = ${auditEvents.targetId} and k.account_id = ${auditEvents.accountId})
  when 'invitation' then (select i.email from invitations i
    where i.id::text = ${auditEvents.targetId} and i.account_id = ${auditEvents.accountId})
  when 'account' then (select a.name from accounts a
    where a.id::text = ${auditEvents.targetId} and a.id = ${auditEvents.accountId})
  when 'record' then 'record ' || left(${auditEvents.targetId}, 8)
  else null end`;

async function readEvents(db: Db, accountId: string, filter: AuditFilter, limit: number, before?: number): Promise<AuditEventView[]> {
  const rows = await withTenant(db, accountId, (tx) =>
    tx
      .select({
        id: auditEvents.id,
        createdAt: auditEvents.createdAt,
        action: auditEvents.action,
        actorUserId: auditEvents.actorUserId,
        actorEmail: users.email,
        actorName: users.name,
        actorKeyId: auditEvents.actorKeyId,
        targetType: auditEvents.targetType,
        targetId: auditEvents.targetId,
        targetName,
        data: auditEvents.data,
      })
      .from(auditEvents)
      .leftJoin(users, eq(users.id, auditEvents.actorUserId))
      .where(conditions(accountId, filter, before))
      .orderBy(desc(auditEvents.id))
      .limit(limit),
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** One page of the account's audit log, newest first; `nextCursor` fetches the next (older) page. */
export async function listAuditEvents(
  db: Db,
  admin: Member,
  input: AuditFilter & { cursor?: number | undefined; limit?: number | undefined },
): Promise<{ events: AuditEventView[]; nextCursor: number | null }> {
  assertAdmin(admin);
  const limit = Math.min(Math.max(input.limit ?? 50, 1), AUDIT_PAGE_MAX);
  const events = await readEvents(db, admin.accountId, input, limit + 1, input.cursor);
  const page = events.slice(0, limit);
  const last = page.at(-1);
  return { events: page, nextCursor: events.length > limit && last ? last.id : null };
}

/**
 * The filtered log as CSV, newest first, with names beside ids. A cell that starts with `=`, `+`,
 * `-`, `@`, tab or carriage return is prefixed with a quote, so a spreadsheet shows it as text
 * instead of running it as a formula (names and reasons are typed by people).
 */
export async function exportAuditCsv(db: Db, admin: Member, filter: AuditFilter): Promise<{ csv: string; rows: number }> {
  assertAdmin(admin);
  const events = await readEvents(db, admin.accountId, filter, EXPORT_MAX);
  const csv = stringify(
    events.map((event) => [
      event.createdAt,
      event.action,
      event.actorEmail ?? event.actorUserId ?? '',
      event.actorName ?? '',
      event.actorKeyId ?? '',
      event.targetType ?? '',
      event.targetName ?? '',
      event.targetId ?? '',
      JSON.stringify(event.data),
    ]),
    {
      header: true,
      escape_formulas: true,
      columns: ['time', 'action', 'actor', 'actor_name', 'key', 'target_type', 'target', 'target_id', 'data'],
    },
  );
  return { csv, rows: events.length };
}
