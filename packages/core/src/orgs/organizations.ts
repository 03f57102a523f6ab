import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import { accounts, memberships, withTenant, withUser, type Db } from '@mmw/db';
import { z } from 'zod';
import { createAccount } from '../accounts/create-account.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { violatesUniqueIndex } from '../unique-violation.ts';
import type { NewAccountSubscription } from '../billing/billing.ts';
import { roleSchema, type Member } from './member.ts';

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
  await withUser(db, userId, (tx) => assertNameFree(tx, userId, name));
  // Two creations at once both pass the check above; the unique index lets only one of them in.
  const created = await createAccount(db, { kind: 'organization', name, ownerUserId: userId, subscription: options.subscription }).catch(
    (error: unknown) => {
      throw violatesUniqueIndex(error, NAME_INDEX) ? nameTaken(name) : error;
    },
  );
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

/** One person's organizations have different names (compared without case), so the switcher tells them apart. */
async function assertNameFree(tx: Db, userId: string, name: string, exceptAccountId?: string): Promise<void> {
  const [taken] = await tx
    .select({ id: accounts.id })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(
      and(
        eq(memberships.userId, userId),
        isNull(memberships.removedAt),
        eq(accounts.kind, 'organization'),
        sql`lower(${accounts.name}) = lower(${name.trim()})`,
        exceptAccountId === undefined ? undefined : ne(accounts.id, exceptAccountId),
      ),
    )
    .limit(1);
  if (taken) throw nameTaken(name);
}

const NAME_INDEX = 'accounts_organization_name_per_holder_idx';
const nameTaken = (name: string) =>
  new AppError('conflict', `you already have an organization named "${name.trim()}"; choose another name`);

/** The owner renames an organization; its id, slug, members and data stay. */
export async function renameOrganization(db: Db, owner: Member, input: { name: string }): Promise<AccountSummary> {
  if (owner.role !== 'owner') throw new AppError('forbidden', 'only an owner may rename the organization');
  if (owner.accountKind !== 'organization') throw new AppError('invalid_input', 'a personal account keeps its name; rename an organization');
  const name = organizationNameSchema.parse(input.name);
  await withUser(db, owner.userId, (tx) => assertNameFree(tx, owner.userId, name, owner.accountId));
  return withTenant(db, owner.accountId, async (tx) => {
    const [before] = await tx.select({ name: accounts.name }).from(accounts).where(eq(accounts.id, owner.accountId)).for('update');
    if (!before) throw new AppError('not_found', 'account not found');
    const [row] = await tx
      .update(accounts)
      .set({ name })
      .where(eq(accounts.id, owner.accountId))
      .returning({ id: accounts.id, name: accounts.name, slug: accounts.slug, requireTwoFactor: accounts.requireTwoFactor })
      .catch((error: unknown) => {
        throw violatesUniqueIndex(error, NAME_INDEX) ? nameTaken(name) : error;
      });
    if (!row) throw new AppError('not_found', 'account not found');
    await recordAudit(tx, {
      accountId: owner.accountId,
      action: 'organization.renamed',
      actorUserId: owner.userId,
      targetType: 'account',
      targetId: owner.accountId,
      data: { from: before.name, to: name },
    });
    return { ...row, kind: 'organization' as const, role: 'owner' as const };
  });
}
