import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { accounts, apiKeys, memberships, projects, subscriptions, users, withSystem, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { endHandoversOnReturn } from '../handover/handover.ts';
import { generateApiKey } from '../keys/api-key.ts';
import { keyOptionsSchema, type KeyOptions } from '../keys/manage-keys.ts';

/**
 * What operators and the first start do across tenants: find-or-create an account, project and
 * member, and issue or revoke keys. Each function acts in one system transaction.
 */
export interface ProvisionedKey {
  accountId: string;
  projectId: string;
  userId: string;
  keyId: string;
  key: string;
  prefix: string;
}

export function defaultMemberEmail(accountSlug: string): string {
  return `owner@${accountSlug.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}.local`;
}

async function ensureAccount(tx: Db, slug: string): Promise<string> {
  const [found] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.slug, slug));
  if (found) return found.id;
  const [created] = await tx
    .insert(accounts)
    .values({ slug, name: slug, kind: 'organization' })
    .onConflictDoNothing()
    .returning({ id: accounts.id });
  if (created) {
    // Without billing, every account has an active self-hosted subscription with no end;
    // with billing, the first Stripe event replaces it.
    await tx
      .insert(subscriptions)
      .values({ accountId: created.id, status: 'active', plan: 'self-hosted' })
      .onConflictDoNothing();
    return created.id;
  }
  const [again] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.slug, slug));
  if (!again) throw new AppError('conflict', `account '${slug}' could not be created`);
  return again.id;
}

async function ensureProject(tx: Db, accountId: string, name: string): Promise<string> {
  await tx.insert(projects).values({ accountId, name }).onConflictDoNothing();
  const [project] = await tx
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.accountId, accountId), eq(projects.name, name)));
  if (!project) throw new AppError('conflict', `project '${name}' could not be created`);
  return project.id;
}

async function ensureMember(tx: Db, accountId: string, email: string): Promise<string> {
  const normalized = email.trim().toLowerCase();
  await tx.insert(users).values({ email: normalized }).onConflictDoNothing();
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, normalized));
  if (!user) throw new AppError('conflict', `member '${normalized}' could not be created`);
  const [anyMember] = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.accountId, accountId))
    .limit(1);
  await tx
    .insert(memberships)
    .values({ accountId, userId: user.id, role: anyMember ? 'member' : 'owner' })
    .onConflictDoUpdate({
      target: [memberships.accountId, memberships.userId],
      set: { removedAt: null },
    });
  await endHandoversOnReturn(tx, accountId, user.id);
  return user.id;
}

export async function provisionKey(
  db: Db,
  input: { account: string; project: string; member?: string | undefined; name?: string | undefined } & KeyOptions,
): Promise<ProvisionedKey> {
  const options = keyOptionsSchema.safeParse(input);
  if (!options.success) throw new AppError('invalid_input', options.error.issues.map((issue) => issue.message).join('; '));
  const expiresAt = options.data.expiresInDays === undefined ? null : new Date(Date.now() + options.data.expiresInDays * 86_400_000);
  return withSystem(db, async (tx) => {
    const accountId = await ensureAccount(tx, input.account);
    const projectId = await ensureProject(tx, accountId, input.project);
    const userId = await ensureMember(tx, accountId, input.member ?? defaultMemberEmail(input.account));
    const { key, hash, prefix } = generateApiKey();
    const [row] = await tx
      .insert(apiKeys)
      .values({ accountId, projectId, userId, name: input.name ?? 'operator key', keyHash: hash, prefix, readOnly: options.data.readOnly, expiresAt })
      .returning({ id: apiKeys.id });
    if (!row) throw new AppError('conflict', 'key could not be created');
    await recordAudit(tx, {
      accountId,
      action: 'key.issued',
      targetType: 'api_key',
      targetId: row.id,
      data: { prefix, projectId, via: 'operator' },
    });
    return { accountId, projectId, userId, keyId: row.id, key, prefix };
  });
}

/** Revokes by key id or by display prefix; an ambiguous prefix revokes nothing. */
export async function revokeKeyByOperator(db: Db, idOrPrefix: string): Promise<{ keyId: string }> {
  return withSystem(db, async (tx) => {
    const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrPrefix);
    const matches = await tx
      .select({ id: apiKeys.id, accountId: apiKeys.accountId })
      .from(apiKeys)
      .where(
        and(
          isNull(apiKeys.revokedAt),
          isUuid
            ? eq(apiKeys.id, idOrPrefix)
            : or(eq(apiKeys.prefix, idOrPrefix), sql`${idOrPrefix} like ${apiKeys.prefix} || '%'`),
        ),
      )
      .limit(2);
    const [match] = matches;
    if (!match) throw new AppError('not_found', `no active key matches '${idOrPrefix}'`);
    if (matches.length > 1) throw new AppError('conflict', `'${idOrPrefix}' matches more than one key`);
    await tx.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, match.id));
    await recordAudit(tx, {
      accountId: match.accountId,
      action: 'key.revoked',
      targetType: 'api_key',
      targetId: match.id,
      data: { via: 'operator' },
    });
    return { keyId: match.id };
  });
}

export async function setProjectActiveByOperator(
  db: Db,
  input: { account: string; project: string; active: boolean },
): Promise<{ projectId: string }> {
  return withSystem(db, async (tx) => {
    const [row] = await tx
      .update(projects)
      .set({ active: input.active })
      .from(accounts)
      .where(
        and(eq(projects.accountId, accounts.id), eq(accounts.slug, input.account), eq(projects.name, input.project)),
      )
      .returning({ id: projects.id, accountId: projects.accountId });
    if (!row) throw new AppError('not_found', `project '${input.project}' of account '${input.account}' not found`);
    await recordAudit(tx, {
      accountId: row.accountId,
      action: input.active ? 'project.reactivated' : 'project.deactivated',
      targetType: 'project',
      targetId: row.id,
      data: { via: 'operator' },
    });
    return { projectId: row.id };
  });
}

export async function findAccountIdBySlug(db: Db, slug: string): Promise<string | undefined> {
  return withSystem(db, async (tx) => {
    const [row] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.slug, slug));
    return row?.id;
  });
}
