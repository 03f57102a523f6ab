import { and, desc, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
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
  actorKeyId: z.string().nullable(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
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

async function readEvents(db: Db, accountId: string, filter: AuditFilter, limit: number, before?: number): Promise<AuditEventView[]> {
  const rows = await withTenant(db, accountId, (tx) =>
    tx
      .select({
        id: auditEvents.id,
        createdAt: auditEvents.createdAt,
        action: auditEvents.action,
        actorUserId: auditEvents.actorUserId,
        actorEmail: users.email,
        actorKeyId: auditEvents.actorKeyId,
        targetType: auditEvents.targetType,
        targetId: auditEvents.targetId,
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

/** The filtered log as CSV, newest first. */
export async function exportAuditCsv(db: Db, admin: Member, filter: AuditFilter): Promise<{ csv: string; rows: number }> {
  assertAdmin(admin);
  const events = await readEvents(db, admin.accountId, filter, EXPORT_MAX);
  const csv = stringify(
    events.map((event) => [
      event.createdAt,
      event.action,
      event.actorEmail ?? event.actorUserId ?? '',
      event.actorKeyId ?? '',
      event.targetType ?? '',
      event.targetId ?? '',
      JSON.stringify(event.data),
    ]),
    { header: true, columns: ['time', 'action', 'actor', 'key', 'target_type', 'target_id', 'data'] },
  );
  return { csv, rows: events.length };
}
