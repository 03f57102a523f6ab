import { eq } from 'drizzle-orm';
import { accounts, withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import type { Member } from './member.ts';

/**
 * An owner requires (or stops requiring) two-factor sign-in of every member of an organization.
 * The owner must have it on first, so that switching it on never locks them out.
 */
export async function setTwoFactorRequirement(
  db: Db,
  owner: Member,
  input: { required: boolean; ownerHasTwoFactor: boolean },
): Promise<{ required: boolean }> {
  if (owner.role !== 'owner') throw new AppError('forbidden', 'only an owner may change this');
  if (owner.accountKind !== 'organization') throw new AppError('invalid_input', 'a personal account has no members to require it of');
  if (input.required && !input.ownerHasTwoFactor) {
    throw new AppError('conflict', 'set up two-factor sign-in for yourself first');
  }
  await withTenant(db, owner.accountId, async (tx) => {
    await tx.update(accounts).set({ requireTwoFactor: input.required }).where(eq(accounts.id, owner.accountId));
    await recordAudit(tx, {
      accountId: owner.accountId,
      action: 'organization.two_factor_requirement_changed',
      actorUserId: owner.userId,
      targetType: 'account',
      targetId: owner.accountId,
      data: { required: input.required },
    });
  });
  return { required: input.required };
}
