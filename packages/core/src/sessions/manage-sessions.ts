import { and, desc, eq, type SQL } from 'drizzle-orm';
import { agentSessions, users, withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { isAdmin, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';

export interface UploadedSession {
  id: string;
  tool: string;
  projectPath: string | null;
  uploaderEmail: string;
  uploaderUserId: string;
  messageCount: number;
  firstMessageAt: string | null;
  lastMessageAt: string | null;
}

const LIST_LIMIT = 200;

/** A session belongs to its uploader; owners and admins of the account see every one (docs/visibility.md). */
function sessionsOf(member: Member): SQL | undefined {
  return isAdmin(member) ? undefined : eq(agentSessions.uploaderUserId, member.userId);
}

/** The project's uploaded sessions the member may see, newest first. */
export async function listProjectSessions(
  db: Db,
  member: Member,
  projectId: string,
): Promise<UploadedSession[]> {
  return withTenant(db, member.accountId, async (tx) => {
    await getProject(tx, member, projectId);
    const rows = await tx
      .select({
        id: agentSessions.id,
        tool: agentSessions.tool,
        projectPath: agentSessions.projectPath,
        uploaderEmail: users.email,
        uploaderUserId: agentSessions.uploaderUserId,
        messageCount: agentSessions.messageCount,
        firstMessageAt: agentSessions.firstMessageAt,
        lastMessageAt: agentSessions.lastMessageAt,
      })
      .from(agentSessions)
      .innerJoin(users, eq(users.id, agentSessions.uploaderUserId))
      .where(
        and(
          eq(agentSessions.accountId, member.accountId),
          eq(agentSessions.projectId, projectId),
          sessionsOf(member),
        ),
      )
      .orderBy(desc(agentSessions.lastMessageAt), desc(agentSessions.id))
      .limit(LIST_LIMIT);
    return rows.map((row) => ({
      ...row,
      firstMessageAt: row.firstMessageAt?.toISOString() ?? null,
      lastMessageAt: row.lastMessageAt?.toISOString() ?? null,
    }));
  });
}

/** Deletes an uploaded session and its messages: its uploader, or an owner or admin, may. */
export async function deleteUploadedSession(db: Db, member: Member, sessionId: string): Promise<void> {
  await withTenant(db, member.accountId, async (tx) => {
    const [deleted] = await tx
      .delete(agentSessions)
      .where(
        and(
          eq(agentSessions.accountId, member.accountId),
          eq(agentSessions.id, sessionId),
          sessionsOf(member),
        ),
      )
      .returning({ id: agentSessions.id, messages: agentSessions.messageCount });
    if (!deleted) throw new AppError('not_found', 'session not found');
    await recordAudit(tx, {
      accountId: member.accountId,
      action: 'sessions.deleted',
      actorUserId: member.userId,
      targetType: 'agent_session',
      targetId: deleted.id,
      data: { messages: deleted.messages },
    });
  });
}
