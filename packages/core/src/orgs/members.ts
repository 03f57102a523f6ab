import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { accounts, apiKeys, memberships, users, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { handOverInTx } from '../handover/handover.ts';
import { assertAdmin, roleSchema, type Member, type Role } from './member.ts';

export const memberSummarySchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  joinedAt: z.string(),
  removedAt: z.string().nullable(),
  /** False for an address nobody proved yet (a member the operator CLI attached by email). */
  emailVerified: z.boolean(),
});
export type MemberSummary = z.infer<typeof memberSummarySchema>;

const memberNotFound = () => new AppError('not_found', 'member not found');

/** Active members, then former ones (whose knowledge may still be handed over). */
export async function listMembers(db: Db, member: Member): Promise<MemberSummary[]> {
  const rows = await withTenant(db, member.accountId, (tx) =>
    tx
      .select({
        userId: memberships.userId,
        email: users.email,
        name: users.name,
        role: memberships.role,
        joinedAt: memberships.createdAt,
        removedAt: memberships.removedAt,
        verifiedAt: users.emailVerifiedAt,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.accountId, member.accountId))
      .orderBy(sql`${memberships.removedAt} is not null`, asc(users.email)),
  );
  return rows.map(({ verifiedAt, ...row }) => ({
    ...row,
    joinedAt: row.joinedAt.toISOString(),
    removedAt: row.removedAt?.toISOString() ?? null,
    emailVerified: verifiedAt !== null,
  }));
}

async function activeRole(tx: Db, accountId: string, userId: string): Promise<Role | undefined> {
  const [row] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId), isNull(memberships.removedAt)));
  return row?.role;
}

async function otherOwners(tx: Db, accountId: string, userId: string): Promise<number> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.accountId, accountId),
        eq(memberships.role, 'owner'),
        isNull(memberships.removedAt),
      ),
    )
    // Every owner row is locked: two owners demoting each other at once must not both succeed.
    .for('update');
  return rows.filter((row) => row.userId !== userId).length;
}

const lastOwner = () => new AppError('conflict', 'the last owner cannot leave or stop being an owner; make someone else an owner first');

/** Owners and admins change roles; only an owner makes or unmakes owners; the last owner stays. */
export async function changeRole(db: Db, admin: Member, input: { userId: string; role: Role }): Promise<void> {
  assertAdmin(admin);
  await withTenant(db, admin.accountId, async (tx) => {
    const current = await activeRole(tx, admin.accountId, input.userId);
    if (current === undefined) throw memberNotFound();
    if ((current === 'owner' || input.role === 'owner') && admin.role !== 'owner') {
      throw new AppError('forbidden', 'only an owner may make or unmake owners');
    }
    if (current === 'owner' && input.role !== 'owner' && (await otherOwners(tx, admin.accountId, input.userId)) === 0) {
      throw lastOwner();
    }
    await tx
      .update(memberships)
      .set({ role: input.role })
      .where(and(eq(memberships.accountId, admin.accountId), eq(memberships.userId, input.userId)));
    await recordAudit(tx, {
      accountId: admin.accountId,
      action: 'member.role_changed',
      actorUserId: admin.userId,
      targetType: 'user',
      targetId: input.userId,
      data: { from: current, to: input.role },
    });
  });
}

async function endMembership(
  tx: Db,
  actor: Member,
  input: { userId: string; receiverUserId?: string | undefined },
  action: 'member.removed' | 'member.left',
): Promise<void> {
  const current = await activeRole(tx, actor.accountId, input.userId);
  if (current === undefined) throw memberNotFound();
  if (current === 'owner' && (await otherOwners(tx, actor.accountId, input.userId)) === 0) throw lastOwner();
  await tx
    .update(memberships)
    .set({ removedAt: new Date() })
    .where(and(eq(memberships.accountId, actor.accountId), eq(memberships.userId, input.userId)));
  // A former member's other organizations may take this one's name.
  await tx
    .update(accounts)
    .set({ nameHolderUserId: null })
    .where(and(eq(accounts.id, actor.accountId), eq(accounts.nameHolderUserId, input.userId)));
  // A key acts for a member; a former member's keys stop at once.
  const revoked = await tx
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiKeys.accountId, actor.accountId), eq(apiKeys.userId, input.userId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  await recordAudit(tx, {
    accountId: actor.accountId,
    action,
    actorUserId: actor.userId,
    targetType: 'user',
    targetId: input.userId,
    data: { role: current, keysRevoked: revoked.length },
  });
  if (input.receiverUserId !== undefined) {
    await handOverInTx(tx, actor, { fromUserId: input.userId, toUserId: input.receiverUserId });
  }
}

/** An admin removes a member, optionally handing their knowledge to a receiver in the same step. */
export async function removeMember(
  db: Db,
  admin: Member,
  input: { userId: string; receiverUserId?: string | undefined },
): Promise<void> {
  assertAdmin(admin);
  if (input.userId === admin.userId) throw new AppError('invalid_input', 'to leave, use "leave" rather than remove yourself');
  await withTenant(db, admin.accountId, async (tx) => {
    if ((await activeRole(tx, admin.accountId, input.userId)) === 'owner' && admin.role !== 'owner') {
      throw new AppError('forbidden', 'only an owner may remove an owner');
    }
    await endMembership(tx, admin, input, 'member.removed');
  });
}

/** A member leaves; the last owner cannot. Their knowledge waits for an admin's handover. */
export async function leaveAccount(db: Db, member: Member): Promise<void> {
  if (member.accountKind === 'personal') throw new AppError('invalid_input', 'a personal account cannot be left');
  await withTenant(db, member.accountId, (tx) => endMembership(tx, member, { userId: member.userId }, 'member.left'));
}
