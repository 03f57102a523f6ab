import { and, asc, eq, isNull } from 'drizzle-orm';
import { accounts, memberships, users, withSystem, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import type { Member } from '../orgs/member.ts';

/**
 * Whom an operator's export or import acts as (`pnpm mmw export|import --account A [--member EMAIL]`):
 * the named member, else the account's first owner. Visibility applies to them as in the dashboard.
 */
export async function operatorMember(db: Db, input: { account: string; member?: string | undefined }): Promise<Member> {
  const rows = await withSystem(db, (tx) =>
    tx
      .select({ accountId: accounts.id, kind: accounts.kind, userId: users.id, role: memberships.role })
      .from(accounts)
      .innerJoin(memberships, and(eq(memberships.accountId, accounts.id), isNull(memberships.removedAt)))
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(accounts.slug, input.account),
          input.member === undefined ? eq(memberships.role, 'owner') : eq(users.email, input.member.trim().toLowerCase()),
        ),
      )
      .orderBy(asc(memberships.createdAt))
      .limit(1),
  );
  const row = rows[0];
  if (row === undefined) {
    throw new AppError(
      'not_found',
      input.member === undefined
        ? `account '${input.account}' not found, or it has no owner`
        : `member ${input.member} of account '${input.account}' not found`,
    );
  }
  return { accountId: row.accountId, userId: row.userId, role: row.role, accountKind: row.kind };
}
