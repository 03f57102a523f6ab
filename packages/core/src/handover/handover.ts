import { and, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { handovers, memberships, users, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { assertAdmin, type Member } from '../orgs/member.ts';

export const handoverSchema = z.object({
  id: z.string(),
  fromUserId: z.string(),
  fromEmail: z.string(),
  toUserId: z.string(),
  toEmail: z.string(),
  createdAt: z.string(),
});
export type Handover = z.infer<typeof handoverSchema>;

/**
 * Hands a former (or leaving) member's knowledge to an active member: the records keep their
 * author, and read, for visibility, as if the receiver had written them. What the leaver had
 * received earlier passes on too.
 */
export async function handOverInTx(
  tx: Db,
  admin: Member,
  input: { fromUserId: string; toUserId: string },
): Promise<void> {
  if (input.fromUserId === input.toUserId) throw new AppError('invalid_input', 'choose another member as the receiver');
  const [receiver] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(eq(memberships.accountId, admin.accountId), eq(memberships.userId, input.toUserId), isNull(memberships.removedAt)),
    );
  if (!receiver) throw new AppError('not_found', 'receiver not found among the active members');
  // The leaver's row is locked: two admins handing the same knowledge over at once are serialized.
  const [leaver] = await tx
    .select({ removedAt: memberships.removedAt })
    .from(memberships)
    .where(and(eq(memberships.accountId, admin.accountId), eq(memberships.userId, input.fromUserId)))
    .for('update');
  if (!leaver) throw new AppError('not_found', 'member not found');
  if (leaver.removedAt === null) {
    throw new AppError('invalid_input', 'knowledge is handed over when a member leaves or is removed');
  }
  const [already] = await tx
    .select({ toEmail: users.email })
    .from(handovers)
    .innerJoin(users, eq(users.id, handovers.toUserId))
    .where(and(eq(handovers.accountId, admin.accountId), eq(handovers.fromUserId, input.fromUserId)))
    .limit(1);
  if (already) {
    throw new AppError('conflict', `this member's knowledge was already handed over to ${already.toEmail}; a handover is done once`);
  }
  const earlier = await tx
    .select({ fromUserId: handovers.fromUserId })
    .from(handovers)
    .where(and(eq(handovers.accountId, admin.accountId), eq(handovers.toUserId, input.fromUserId)));
  const sources = [input.fromUserId, ...earlier.map((row) => row.fromUserId)].filter((id) => id !== input.toUserId);
  await tx
    .insert(handovers)
    .values(sources.map((fromUserId) => ({ accountId: admin.accountId, fromUserId, toUserId: input.toUserId, createdBy: admin.userId })))
    .onConflictDoNothing();
  await recordAudit(tx, {
    accountId: admin.accountId,
    action: 'handover.created',
    actorUserId: admin.userId,
    targetType: 'user',
    targetId: input.fromUserId,
    data: { toUserId: input.toUserId, passedOn: sources.length - 1 },
  });
}

/**
 * A former member who rejoins takes their knowledge back: what was handed over from them ends (their
 * new records, author-only ones included, are theirs alone again). Called in the statement's
 * transaction that makes the membership active again.
 */
export async function endHandoversOnReturn(tx: Db, accountId: string, userId: string): Promise<void> {
  const ended = await tx
    .delete(handovers)
    .where(and(eq(handovers.accountId, accountId), eq(handovers.fromUserId, userId)))
    .returning({ toUserId: handovers.toUserId });
  if (ended.length === 0) return;
  await recordAudit(tx, {
    accountId,
    action: 'handover.ended',
    actorUserId: userId,
    targetType: 'user',
    targetId: userId,
    data: { reason: 'rejoined', receivers: ended.map((row) => row.toUserId) },
  });
}

export async function handOver(db: Db, admin: Member, input: { fromUserId: string; toUserId: string }): Promise<void> {
  assertAdmin(admin);
  await withTenant(db, admin.accountId, (tx) => handOverInTx(tx, admin, input));
}

export async function listHandovers(db: Db, admin: Member): Promise<Handover[]> {
  assertAdmin(admin);
  const from = alias(users, 'from_user');
  const to = alias(users, 'to_user');
  const rows = await withTenant(db, admin.accountId, (tx) =>
    tx
      .select({
        id: handovers.id,
        fromUserId: handovers.fromUserId,
        fromEmail: from.email,
        toUserId: handovers.toUserId,
        toEmail: to.email,
        createdAt: handovers.createdAt,
      })
      .from(handovers)
      .innerJoin(from, eq(from.id, handovers.fromUserId))
      .innerJoin(to, eq(to.id, handovers.toUserId))
      .where(and(eq(handovers.accountId, admin.accountId), isNotNull(handovers.id)))
      .orderBy(desc(handovers.createdAt)),
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
