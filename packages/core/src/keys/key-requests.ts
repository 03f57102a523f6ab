import { and, desc, eq, isNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { keyRequests, memberships, projects, users, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { assertAdmin, isAdmin, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';
import { issueKeyInTx, keyOptionsSchema, keySummary, type KeyOptions, type KeySummary } from './manage-keys.ts';

/**
 * An admin who sets up a key for a colleague asks for it; the colleague accepts, sees the key once
 * and the key is theirs: a key always acts for the person who issued it.
 */
export const keyRequestSchema = z.object({
  id: z.string(),
  name: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  userId: z.string(),
  userEmail: z.string(),
  requestedByEmail: z.string().nullable(),
  readOnly: z.boolean(),
  expiresInDays: z.number().nullable(),
  createdAt: z.string(),
});
export type KeyRequest = z.infer<typeof keyRequestSchema>;

const requestNotFound = () => new AppError('not_found', 'key request not found or already answered');

export async function requestKey(
  db: Db,
  admin: Member,
  input: { projectId: string; name: string; userId: string } & KeyOptions,
): Promise<KeyRequest> {
  assertAdmin(admin);
  const options = keyOptionsSchema.parse(input);
  const id = await withTenant(db, admin.accountId, async (tx) => {
    const project = await getProject(tx, admin, input.projectId);
    const [target] = await tx
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(and(eq(memberships.accountId, admin.accountId), eq(memberships.userId, input.userId), isNull(memberships.removedAt)));
    if (!target) throw new AppError('not_found', 'member not found');
    const [row] = await tx
      .insert(keyRequests)
      .values({
        accountId: admin.accountId,
        projectId: project.id,
        userId: input.userId,
        name: input.name,
        readOnly: options.readOnly,
        expiresInDays: options.expiresInDays ?? null,
        requestedBy: admin.userId,
      })
      .returning({ id: keyRequests.id });
    if (!row) throw new AppError('unavailable', 'the key request could not be created');
    await recordAudit(tx, {
      accountId: admin.accountId,
      action: 'key.requested',
      actorUserId: admin.userId,
      targetType: 'user',
      targetId: input.userId,
      data: { projectId: project.id, readOnly: options.readOnly },
    });
    return row.id;
  });
  const found = (await listKeyRequests(db, admin)).find((row) => row.id === id);
  if (!found) throw requestNotFound();
  return found;
}

/** Pending requests: a member's own; every one of the account for admins. */
export async function listKeyRequests(db: Db, member: Member): Promise<KeyRequest[]> {
  const person = alias(users, 'request_user');
  const requester = alias(users, 'request_by');
  const rows = await withTenant(db, member.accountId, (tx) =>
    tx
      .select({
        id: keyRequests.id,
        name: keyRequests.name,
        projectId: keyRequests.projectId,
        projectName: projects.name,
        userId: keyRequests.userId,
        userEmail: person.email,
        requestedByEmail: requester.email,
        readOnly: keyRequests.readOnly,
        expiresInDays: keyRequests.expiresInDays,
        createdAt: keyRequests.createdAt,
      })
      .from(keyRequests)
      .innerJoin(projects, eq(projects.id, keyRequests.projectId))
      .innerJoin(person, eq(person.id, keyRequests.userId))
      .leftJoin(requester, eq(requester.id, keyRequests.requestedBy))
      .where(
        and(
          eq(keyRequests.accountId, member.accountId),
          isNull(keyRequests.closedAt),
          isAdmin(member) ? undefined : eq(keyRequests.userId, member.userId),
        ),
      )
      .orderBy(desc(keyRequests.createdAt))
      .limit(200),
  );
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** The colleague accepts: the key is issued by them, for them, and shown this once. */
export async function acceptKeyRequest(
  db: Db,
  member: Member,
  requestId: string,
): Promise<{ key: string; summary: KeySummary }> {
  const { key, id } = await withTenant(db, member.accountId, async (tx) => {
    const [request] = await tx
      .update(keyRequests)
      .set({ closedAt: new Date() })
      .where(
        and(
          eq(keyRequests.id, requestId),
          eq(keyRequests.accountId, member.accountId),
          eq(keyRequests.userId, member.userId),
          isNull(keyRequests.closedAt),
        ),
      )
      .returning();
    if (!request) throw requestNotFound();
    const issued = await issueKeyInTx(tx, member, {
      projectId: request.projectId,
      name: request.name,
      readOnly: request.readOnly,
      ...(request.expiresInDays === null ? {} : { expiresInDays: request.expiresInDays }),
    });
    await tx.update(keyRequests).set({ keyId: issued.id }).where(eq(keyRequests.id, request.id));
    return issued;
  });
  return { key, summary: await keySummary(db, member, id) };
}

/** The colleague declines, or an admin withdraws the request. */
export async function closeKeyRequest(db: Db, member: Member, requestId: string): Promise<void> {
  await withTenant(db, member.accountId, async (tx) => {
    const [row] = await tx
      .update(keyRequests)
      .set({ closedAt: new Date() })
      .where(
        and(
          eq(keyRequests.id, requestId),
          eq(keyRequests.accountId, member.accountId),
          isNull(keyRequests.closedAt),
          isAdmin(member) ? undefined : eq(keyRequests.userId, member.userId),
        ),
      )
      .returning({ id: keyRequests.id });
    if (!row) throw requestNotFound();
  });
}
