import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { apiKeys, projects, users, withTenant, type Db } from '@mmw/db';
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
  expiresAt: z.string().nullable(),
  readOnly: z.boolean(),
});
export type KeySummary = z.infer<typeof keySummarySchema>;
export const keyNameSchema = z.string().trim().min(1, 'name must not be empty').max(100);
/** What the issuer chooses besides the name: read-only, and an expiry in days (none: until revoked). */
export const keyOptionsSchema = z.object({
  readOnly: z.boolean().default(false),
  expiresInDays: z.number().int().min(1, 'a key expires after at least a day').max(3650).optional(),
});
export type KeyOptions = z.input<typeof keyOptionsSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;

const keyNotFound = () => new AppError('not_found', 'key not found');

/** Admins see every key of the account; members see their own. */
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
        expiresAt: apiKeys.expiresAt,
        readOnly: apiKeys.readOnly,
      })
      .from(apiKeys)
      .innerJoin(projects, eq(projects.id, apiKeys.projectId))
      .innerJoin(owner, eq(owner.id, apiKeys.userId))
      .leftJoin(creator, eq(creator.id, apiKeys.createdBy))
      .where(
        and(
          eq(apiKeys.accountId, member.accountId),
          // OAuth grants are listed apart, as connected clients.
          isNull(apiKeys.oauthClientId),
          isAdmin(member) ? undefined : eq(apiKeys.userId, member.userId),
        ),
      )
      .orderBy(desc(apiKeys.createdAt))
      .limit(500),
  );
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
  }));
}

/**
 * Issues, in a tenant transaction, a key bound to one project that acts for the member who issues
 * it, and no one else. The key is returned once; only its hash and display prefix are kept.
 */
export async function issueKeyInTx(
  tx: Db,
  member: Member,
  input: { projectId: string; name: string } & KeyOptions,
): Promise<{ key: string; id: string }> {
  const options = keyOptionsSchema.parse(input);
  const { key, hash, prefix } = generateApiKey();
  const project = await getProject(tx, member, input.projectId);
  if (!project.active) throw new AppError('project_unavailable', 'the project is deactivated; reactivate it first');
  const expiresAt = options.expiresInDays === undefined ? null : new Date(Date.now() + options.expiresInDays * DAY_MS);
  const [row] = await tx
    .insert(apiKeys)
    .values({
      accountId: member.accountId,
      projectId: project.id,
      userId: member.userId,
      name: input.name,
      keyHash: hash,
      prefix,
      createdBy: member.userId,
      readOnly: options.readOnly,
      expiresAt,
    })
    .returning({ id: apiKeys.id });
  if (!row) throw new AppError('unavailable', 'the key could not be created');
  await recordAudit(tx, {
    accountId: member.accountId,
    action: 'key.issued',
    actorUserId: member.userId,
    targetType: 'api_key',
    targetId: row.id,
    data: { prefix, projectId: project.id, readOnly: options.readOnly, expiresAt: expiresAt?.toISOString() ?? null },
  });
  return { key, id: row.id };
}

/** A key of the signed-in member's own; see issueKeyInTx. */
export async function issueKey(
  db: Db,
  member: Member,
  input: { projectId: string; name: string } & KeyOptions,
): Promise<{ key: string; summary: KeySummary }> {
  const { key, id } = await withTenant(db, member.accountId, (tx) => issueKeyInTx(tx, member, input));
  return { key, summary: await keySummary(db, member, id) };
}

export async function keySummary(db: Db, member: Member, id: string): Promise<KeySummary> {
  const summary = (await listKeys(db, member)).find((row) => row.id === id);
  if (!summary) throw keyNotFound();
  return summary;
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
          isNull(apiKeys.oauthClientId),
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
