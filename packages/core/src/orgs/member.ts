import { and, eq, isNull } from 'drizzle-orm';
import { accounts, memberships, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';

export const roles = ['owner', 'admin', 'member'] as const;
export const roleSchema = z.enum(roles);
export type Role = z.infer<typeof roleSchema>;

/** A signed-in user acting in one account, as the dashboard resolved it once per request. */
export interface Member {
  accountId: string;
  userId: string;
  role: Role;
  accountKind: 'personal' | 'organization';
}

export const accountNotFound = () => new AppError('not_found', 'account not found');

export const TWO_FACTOR_REQUIRED = 'this organization requires two-factor sign-in: set it up under Settings to continue';

/**
 * The user's active membership of the account; another tenant's account is "not found". An
 * organization whose owner requires two-factor sign-in is refused to a member who has not set it up.
 */
export async function resolveMember(
  db: Db,
  user: { id: string; twoFactorEnabled: boolean },
  accountId: string,
): Promise<Member> {
  const userId = user.id;
  const [row] = await withTenant(db, accountId, (tx) =>
    tx
      .select({ role: memberships.role, kind: accounts.kind, requireTwoFactor: accounts.requireTwoFactor })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(
        and(eq(memberships.accountId, accountId), eq(memberships.userId, userId), isNull(memberships.removedAt)),
      ),
  );
  if (!row) throw accountNotFound();
  if (row.requireTwoFactor && !user.twoFactorEnabled) throw new AppError('forbidden', TWO_FACTOR_REQUIRED);
  return { accountId, userId, role: row.role, accountKind: row.kind };
}

export function isAdmin(member: Member): boolean {
  return member.role === 'owner' || member.role === 'admin';
}

export function assertAdmin(member: Member): void {
  if (!isAdmin(member)) throw new AppError('forbidden', 'only owners and admins may do this');
}

/** The member as a caller of the memory core, reading one project of the account. */
export function memberCaller(member: Member, projectId: string): Caller {
  return { accountId: member.accountId, projectId, userId: member.userId, keyId: null, source: 'dashboard' };
}
