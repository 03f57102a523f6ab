import { and, count, eq, sql } from 'drizzle-orm';
import { agentSessions, sessionMessages, sessionUploadBatches, withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import type { Plan } from '../billing/plans.ts';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { redactSecrets } from '../guard/redact-secrets.ts';
import type { SessionBatch, SessionBatchResult } from './session-batch.ts';

/**
 * Stores a batch of uploaded session messages for the caller (the key's member), in the key's
 * project. Secrets are redacted again here; the injection check does not apply, since transcripts
 * are full of instructions by nature. A batch id seen before is answered without storing anything;
 * a message key seen before in its session is stored once.
 */
export async function uploadSessionBatch(
  db: Db,
  caller: Caller,
  plan: Plan,
  batch: SessionBatch,
): Promise<SessionBatchResult> {
  const sessions = await Promise.all(
    batch.sessions.map(async (session) => ({
      ...session,
      project_path: session.project_path === null ? null : (await redactSecrets(session.project_path)).text,
      messages: await Promise.all(
        session.messages.map(async (message) => ({
          ...message,
          content: (await redactSecrets(message.content)).text,
        })),
      ),
    })),
  );
  const incoming = sessions.reduce((sum, session) => sum + session.messages.length, 0);
  return withTenant(db, caller.accountId, async (tx) => {
    const [fresh] = await tx
      .insert(sessionUploadBatches)
      .values({ accountId: caller.accountId, batchId: batch.batch_id, keyId: caller.keyId, stored: 0 })
      .onConflictDoNothing()
      .returning({ batchId: sessionUploadBatches.batchId });
    if (!fresh) return { batch_id: batch.batch_id, stored: 0, repeated: true };
    await checkMessageLimit(tx, caller.accountId, plan, incoming);
    let stored = 0;
    for (const session of sessions) stored += await storeSession(tx, caller, session);
    await tx
      .update(sessionUploadBatches)
      .set({ stored })
      .where(
        and(
          eq(sessionUploadBatches.accountId, caller.accountId),
          eq(sessionUploadBatches.batchId, batch.batch_id),
        ),
      );
    await recordAudit(tx, {
      accountId: caller.accountId,
      action: 'sessions.uploaded',
      actorUserId: caller.userId,
      actorKeyId: caller.keyId,
      targetType: 'project',
      targetId: caller.projectId,
      data: { batch: batch.batch_id, sessions: sessions.length, messages: stored },
    });
    return { batch_id: batch.batch_id, stored, repeated: false };
  });
}

async function checkMessageLimit(tx: Db, accountId: string, plan: Plan, incoming: number): Promise<void> {
  const limit = plan.sessionMessageLimit;
  if (limit === null) return;
  const [row] = await tx
    .select({ kept: count() })
    .from(sessionMessages)
    .where(eq(sessionMessages.accountId, accountId));
  if ((row?.kept ?? 0) + incoming <= limit) return;
  throw new AppError(
    'session_message_limit',
    `session message limit reached: the ${plan.name} plan keeps at most ${limit} uploaded session messages. Delete sessions you no longer need or upgrade the plan.`,
  );
}

type RedactedSession = SessionBatch['sessions'][number];

async function storeSession(tx: Db, caller: Caller, session: RedactedSession): Promise<number> {
  const [row] = await tx
    .insert(agentSessions)
    .values({
      accountId: caller.accountId,
      projectId: caller.projectId,
      uploaderUserId: caller.userId,
      tool: session.tool,
      externalId: session.external_id,
      projectPath: session.project_path,
    })
    .onConflictDoUpdate({
      target: [
        agentSessions.projectId,
        agentSessions.uploaderUserId,
        agentSessions.tool,
        agentSessions.externalId,
      ],
      set: { projectPath: sql`coalesce(excluded.project_path, ${agentSessions.projectPath})` },
    })
    .returning({ id: agentSessions.id });
  if (!row || session.messages.length === 0) return 0;
  const inserted = await tx
    .insert(sessionMessages)
    .values(
      session.messages.map((message) => ({
        accountId: caller.accountId,
        projectId: caller.projectId,
        sessionId: row.id,
        uploaderUserId: caller.userId,
        messageKey: message.key,
        role: message.role,
        content: message.content,
        at: new Date(message.at),
      })),
    )
    .onConflictDoNothing()
    .returning({ at: sessionMessages.at });
  if (inserted.length === 0) return 0;
  const times = inserted.map((message) => message.at.getTime());
  await tx
    .update(agentSessions)
    .set({
      messageCount: sql`${agentSessions.messageCount} + ${inserted.length}`,
      firstMessageAt: sql`least(${agentSessions.firstMessageAt}, ${new Date(Math.min(...times)).toISOString()}::timestamptz)`,
      lastMessageAt: sql`greatest(${agentSessions.lastMessageAt}, ${new Date(Math.max(...times)).toISOString()}::timestamptz)`,
    })
    .where(eq(agentSessions.id, row.id));
  return inserted.length;
}
