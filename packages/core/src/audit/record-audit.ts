import { auditEvents, type Db } from '@mmw/db';

export interface AuditEntry {
  accountId: string;
  action: string;
  actorUserId?: string | null;
  actorKeyId?: string | null;
  targetType?: string;
  targetId?: string;
  /** Counts, ids and names only: never record content or a secret. */
  data?: Record<string, unknown>;
}

export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values({
    accountId: entry.accountId,
    action: entry.action,
    actorUserId: entry.actorUserId ?? null,
    actorKeyId: entry.actorKeyId ?? null,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId ?? null,
    data: entry.data ?? {},
  });
}
