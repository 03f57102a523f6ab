import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { accounts, invitations, memberships, users, withInvitationHash, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { assertEmailVerified } from '../auth/email-verification.ts';
import { generateSecretToken, hashSecretToken, isWellFormedToken } from '../auth/session-token.ts';
import { assertMemberSeat } from '../billing/member-seats.ts';
import { AppError } from '../errors.ts';
import { endHandoversOnReturn } from '../handover/handover.ts';
import { assertAdmin, roleSchema, type Member, type Role } from './member.ts';

const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export const invitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: roleSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  status: z.enum(['pending', 'accepted', 'revoked', 'expired']),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const invitationPreviewSchema = z.object({
  accountName: z.string(),
  email: z.string(),
  role: roleSchema,
});

const invitationNotFound = () => new AppError('not_found', 'invitation not found, expired or already used');

function statusOf(row: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): Invitation['status'] {
  if (row.acceptedAt) return 'accepted';
  if (row.revokedAt) return 'revoked';
  return row.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
}

/** A new invitation; the token (for the link) is returned once and only its hash is kept. */
export async function createInvitation(
  db: Db,
  admin: Member,
  input: { email: string; role: Role },
): Promise<{ invitation: Invitation; token: string }> {
  assertAdmin(admin);
  if (admin.accountKind === 'personal') throw new AppError('invalid_input', 'invite people to an organization, not to a personal account');
  if (input.role === 'owner' && admin.role !== 'owner') throw new AppError('forbidden', 'only an owner may invite an owner');
  const token = generateSecretToken();
  const now = new Date();
  return withTenant(db, admin.accountId, async (tx) => {
    await assertInvitable(tx, admin, input.email);
    await assertMemberSeat(tx, admin.accountId, { countPendingInvitations: true, now });
    const [row] = await tx
      .insert(invitations)
      .values({
        accountId: admin.accountId,
        email: input.email,
        role: input.role,
        tokenHash: hashSecretToken(token),
        invitedBy: admin.userId,
        expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
      })
      .returning();
    if (!row) throw new AppError('unavailable', 'the invitation could not be created');
    await recordAudit(tx, {
      accountId: admin.accountId,
      action: 'invitation.created',
      actorUserId: admin.userId,
      targetType: 'invitation',
      targetId: row.id,
      data: { role: input.role },
    });
    const invitation = { ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(), status: 'pending' as const };
    return { invitation, token };
  });
}

/**
 * Nobody invites themselves, an active member, or an address that already has an open invitation
 * (pending or expired, not accepted or revoked: resend that one). The account row is locked so that
 * two admins inviting the same address at once get one invitation and one clear error.
 */
async function assertInvitable(tx: Db, admin: Member, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, admin.accountId)).for('update');
  const [self] = await tx.select({ email: users.email }).from(users).where(eq(users.id, admin.userId));
  if (self?.email.toLowerCase() === address) throw new AppError('invalid_input', 'you cannot invite yourself');
  const [member] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.accountId, admin.accountId), isNull(memberships.removedAt), sql`lower(${users.email}) = ${address}`));
  if (member) throw new AppError('conflict', `${address} is already a member`);
  const [open] = await tx
    .select({ id: invitations.id })
    .from(invitations)
    .where(
      and(
        eq(invitations.accountId, admin.accountId),
        sql`lower(${invitations.email}) = ${address}`,
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
      ),
    )
    .limit(1);
  if (open) throw new AppError('conflict', `${address} already has an open invitation; resend it or revoke it first`);
}

/**
 * A fresh link for an open invitation (the old link stops working) and seven more days; what the
 * admin copies or mails again. The token is returned once; only its hash is kept.
 */
export async function resendInvitation(
  db: Db,
  admin: Member,
  invitationId: string,
): Promise<{ invitation: Invitation; token: string; accountName: string }> {
  assertAdmin(admin);
  const token = generateSecretToken();
  const now = new Date();
  return withTenant(db, admin.accountId, async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ tokenHash: hashSecretToken(token), expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS) })
      .where(
        and(
          eq(invitations.id, invitationId),
          eq(invitations.accountId, admin.accountId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      )
      .returning();
    if (!row) throw invitationNotFound();
    if (row.role === 'owner' && admin.role !== 'owner') throw new AppError('forbidden', 'only an owner may invite an owner');
    const [account] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, admin.accountId));
    await recordAudit(tx, {
      accountId: admin.accountId,
      action: 'invitation.resent',
      actorUserId: admin.userId,
      targetType: 'invitation',
      targetId: row.id,
      data: { role: row.role },
    });
    const invitation = { ...row, createdAt: row.createdAt.toISOString(), expiresAt: row.expiresAt.toISOString(), status: 'pending' as const };
    return { invitation, token, accountName: account?.name ?? '' };
  });
}

export async function listInvitations(db: Db, admin: Member): Promise<Invitation[]> {
  assertAdmin(admin);
  const now = new Date();
  const rows = await withTenant(db, admin.accountId, (tx) =>
    tx.select().from(invitations).where(eq(invitations.accountId, admin.accountId)).orderBy(desc(invitations.createdAt)).limit(200),
  );
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: statusOf(row, now),
  }));
}

export async function revokeInvitation(db: Db, admin: Member, invitationId: string): Promise<void> {
  assertAdmin(admin);
  await withTenant(db, admin.accountId, async (tx) => {
    const [row] = await tx
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(invitations.id, invitationId),
          eq(invitations.accountId, admin.accountId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
        ),
      )
      .returning({ id: invitations.id });
    if (!row) throw invitationNotFound();
    await recordAudit(tx, {
      accountId: admin.accountId,
      action: 'invitation.revoked',
      actorUserId: admin.userId,
      targetType: 'invitation',
      targetId: row.id,
    });
  });
}

async function pendingByToken(db: Db, token: string) {
  if (!isWellFormedToken(token)) throw invitationNotFound();
  const now = new Date();
  const [row] = await withInvitationHash(db, hashSecretToken(token), (tx) =>
    tx.select().from(invitations).where(eq(invitations.tokenHash, hashSecretToken(token))),
  );
  if (!row || statusOf(row, now) !== 'pending') throw invitationNotFound();
  return row;
}

/** What the invitation link's page shows before accepting. */
export async function previewInvitation(db: Db, token: string): Promise<z.infer<typeof invitationPreviewSchema>> {
  const row = await pendingByToken(db, token);
  const [account] = await withTenant(db, row.accountId, (tx) =>
    tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, row.accountId)),
  );
  return { accountName: account?.name ?? '', email: row.email, role: row.role };
}

/** Accepts an invitation for the signed-in user, whose email must be the invited one. */
export async function acceptInvitation(db: Db, userId: string, token: string): Promise<{ accountId: string }> {
  const row = await pendingByToken(db, token);
  // Invitations bind by email: only a proven address accepts one.
  const email = await assertEmailVerified(db, userId);
  if (email !== row.email.toLowerCase()) {
    throw new AppError('forbidden', `this invitation is for ${row.email}; sign in with that email to accept it`);
  }
  return withTenant(db, row.accountId, async (tx) => {
    const [claimed] = await tx
      .update(invitations)
      .set({ acceptedAt: new Date(), acceptedBy: userId })
      .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ id: invitations.id });
    if (!claimed) throw invitationNotFound();
    await assertMemberSeat(tx, row.accountId, { countPendingInvitations: false, now: new Date() });
    await tx
      .insert(memberships)
      .values({ accountId: row.accountId, userId, role: row.role })
      .onConflictDoUpdate({
        target: [memberships.accountId, memberships.userId],
        set: { removedAt: null, role: sql`case when ${memberships.removedAt} is null then ${memberships.role} else excluded.role end` },
      });
    await endHandoversOnReturn(tx, row.accountId, userId);
    await recordAudit(tx, {
      accountId: row.accountId,
      action: 'member.joined',
      actorUserId: userId,
      targetType: 'invitation',
      targetId: row.id,
      data: { role: row.role },
    });
    return { accountId: row.accountId };
  });
}
