import { and, asc, eq, isNull } from 'drizzle-orm';
import { accounts, memberships, withTenant, withUser, type Db } from '@mmw/db';
import { z } from 'zod';
import { createAccount } from '../accounts/create-account.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { NewAccountSubscription } from '../billing/billing.ts';
import { roleSchema } from './member.ts';

export const accountSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  kind: z.enum(['personal', 'organization']),
  role: roleSchema,
  /** Its owner requires two-factor sign-in of every member. */
  requireTwoFactor: z.boolean(),
});
export type AccountSummary = z.infer<typeof accountSummarySchema>;

export const organizationNameSchema = z.string().trim().min(1, 'name must not be empty').max(100);

/** The accounts the user is an active member of: the personal one first, then organizations by name. */
export async function listMyAccounts(db: Db, userId: string): Promise<AccountSummary[]> {
  const rows = await withUser(db, userId, (tx) =>
    tx
      .select({
        id: accounts.id,
        name: accounts.name,
        slug: accounts.slug,
        kind: accounts.kind,
        role: memberships.role,
        requireTwoFactor: accounts.requireTwoFactor,
      })
      .from(memberships)
      .innerJoin(accounts, eq(accounts.id, memberships.accountId))
      .where(and(eq(memberships.userId, userId), isNull(memberships.removedAt)))
      .orderBy(asc(accounts.kind), asc(accounts.name)),
  );
  return rows.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'personal' ? -1 : 1));
}

export async function createOrganization(
  db: Db,
  userId: string,
  name: string,
  options: { subscription?: NewAccountSubscription | undefined } = {},
): Promise<AccountSummary> {
  const created = await createAccount(db, { kind: 'organization', name, ownerUserId: userId, subscription: options.subscription });
  await withTenant(db, created.accountId, (tx) =>
    recordAudit(tx, {
      accountId: created.accountId,
      action: 'organization.created',
      actorUserId: userId,
      targetType: 'account',
      targetId: created.accountId,
      data: { name },
    }),
  );
  return { id: created.accountId, name, slug: created.slug, kind: 'organization', role: 'owner', requireTwoFactor: false };
}
