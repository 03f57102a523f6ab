import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { apiKeys, memberships, projects, users, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { isAdmin, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';
import { generateApiKey } from './api-key.ts';

export const keySummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  createdByEmail: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type KeySummary = z.infer<typeof keySummarySchema>;
export const keyNameSchema = z.string().trim().min(1, 'name must not be empty').max(100);

const keyNotFound = () => new AppError('not_found', 'key not found');

/** Admins see every key of the account; members see the keys that act for them. */
export async function listKeys(db: Db, member: Member): Promise<KeySummary[]> {
  const owner = alias(users, 'key_user');
  const creator = alias(users, 'key_creator');
  const rows = await withTenant(db, member.accountId, (tx) =>
    tx
      .select({
        id: apiKeys.id,
        name: apiKeys.name,
        prefix: apiKeys.prefix,
        projectId: apiKeys.projectId,
        projectName: projects.name,
        userId: apiKeys.userId,
        userEmail: owner.email,
        createdByEmail: creator.email,
        createdAt: apiKeys.createdAt,
        lastUsedAt: apiKeys.lastUsedAt,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .innerJoin(projects, eq(projects.id, apiKeys.projectId))
      .innerJoin(owner, eq(owner.id, apiKeys.userId))
      .leftJoin(creator, eq(creator.id, apiKeys.createdBy))
      .where(and(eq(apiKeys.accountId, member.accountId), isAdmin(member) ? undefined : eq(apiKeys.userId, member.userId)))
      .orderBy(desc(apiKeys.createdAt))
      .limit(500),
  );
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

/**
 * Issues a key bound to one project and acting for one member: members for themselves, admins for
 * any active member. The key is returned once; only its hash and display prefix are kept.
 */
export async function issueKey(
  db: Db,
  member: Member,
  input: { projectId: string; name: string; userId?: string | undefined },
): Promise<{ key: string; summary: KeySummary }> {
  const actsFor = input.userId ?? member.userId;
  if (actsFor !== member.userId && !isAdmin(member)) {
    throw new AppError('forbidden', 'members issue keys for themselves only');
  }
  const { key, hash, prefix } = generateApiKey();
  const id = await withTenant(db, member.accountId, async (tx) => {
    const project = await getProject(tx, member, input.projectId);
    if (!project.active) throw new AppError('project_unavailable', 'the project is deactivated; reactivate it first');
    const [target] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.accountId, member.accountId), eq(memberships.userId, actsFor), isNull(memberships.removedAt)));
    if (!target) throw new AppError('not_found', 'member not found');
    const [row] = await tx
      .insert(apiKeys)
      .values({ accountId: member.accountId, projectId: project.id, userId: actsFor, name: input.name, keyHash: hash, prefix, createdBy: member.userId })
      .returning({ id: apiKeys.id });
    if (!row) throw new AppError('unavailable', 'the key could not be created');
    await recordAudit(tx, {
      accountId: member.accountId,
      action: 'key.issued',
      actorUserId: member.userId,
      targetType: 'api_key',
      targetId: row.id,
      data: { prefix, projectId: project.id, actsFor },
    });
    return row.id;
  });
  const summary = (await listKeys(db, member)).find((row) => row.id === id);
  if (!summary) throw keyNotFound();
  return { key, summary };
}

/** Admins revoke any key of the account; members revoke their own. */
export async function revokeKey(db: Db, member: Member, keyId: string): Promise<void> {
  await withTenant(db, member.accountId, async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(apiKeys.id, keyId),
          eq(apiKeys.accountId, member.accountId),
          isNull(apiKeys.revokedAt),
          isAdmin(member) ? undefined : eq(apiKeys.userId, member.userId),
        ),
      )
      .returning({ id: apiKeys.id, prefix: apiKeys.prefix });
    if (!row) throw keyNotFound();
    await recordAudit(tx, {
      accountId: member.accountId,
      action: 'key.revoked',
      actorUserId: member.userId,
      targetType: 'api_key',
      targetId: row.id,
      data: { prefix: row.prefix },
    });
  });
}
