import { and, eq, isNull } from 'drizzle-orm';
import { memberships, withTenant, withUser, type Db } from '@mmw/db';
import { recordAudit, type AuditEntry } from './record-audit.ts';

/** Events of a person rather than an account (sign-ins): recorded in every account they belong to. */
export async function auditForUser(db: Db, userId: string, entry: Omit<AuditEntry, 'accountId'>): Promise<void> {
  const accounts = await withUser(db, userId, (tx) =>
    tx
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(and(eq(memberships.userId, userId), isNull(memberships.removedAt))),
  );
  for (const { accountId } of accounts) {
    await withTenant(db, accountId, (tx) => recordAudit(tx, { ...entry, accountId, actorUserId: userId }));
  }
}
