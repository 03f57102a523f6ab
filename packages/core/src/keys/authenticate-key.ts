import { and, eq, isNull, sql } from 'drizzle-orm';
import { apiKeys, memberships, projects, subscriptions, withKeyHash, type Db } from '@mmw/db';
import { isSubscriptionStatus } from '../billing/subscription-status.ts';
import type { MemorySession } from '../memory/memory-session.ts';
import { AppError } from '../errors.ts';
import { hashApiKey, hashesEqual, isWellFormedApiKey } from './api-key.ts';

const unauthorized = () => new AppError('unauthorized', 'invalid or revoked API key');

/** Resolves a presented key to its caller; unknown, malformed and revoked keys are all 'unauthorized'. */
export async function authenticateKey(db: Db, presented: string): Promise<MemorySession> {
  if (!isWellFormedApiKey(presented)) throw unauthorized();
  const hash = hashApiKey(presented);
  return withKeyHash(db, hash, async (tx) => {
    const [key] = await tx
      .select({
        id: apiKeys.id,
        accountId: apiKeys.accountId,
        projectId: apiKeys.projectId,
        userId: apiKeys.userId,
        keyHash: apiKeys.keyHash,
        revokedAt: apiKeys.revokedAt,
      })
      .from(apiKeys)
      .where(eq(apiKeys.keyHash, hash));
    if (!key || key.revokedAt !== null || !hashesEqual(key.keyHash, hash)) throw unauthorized();

    await tx.execute(sql`select set_config('mmw.account_id', ${key.accountId}, true)`);
    const [member] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(
        and(
          eq(memberships.accountId, key.accountId),
          eq(memberships.userId, key.userId),
          isNull(memberships.removedAt),
        ),
      );
    if (!member) throw unauthorized();
    const [project] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(
        and(
          eq(projects.id, key.projectId),
          eq(projects.accountId, key.accountId),
          eq(projects.active, true),
          isNull(projects.deletedAt),
        ),
      );
    const [subscription] = await tx
      .select({
        status: subscriptions.status,
        plan: subscriptions.plan,
        currentPeriodEnd: subscriptions.currentPeriodEnd,
        updatedAt: subscriptions.updatedAt,
      })
      .from(subscriptions)
      .where(eq(subscriptions.accountId, key.accountId));
    // Written at most once a minute per key, so a busy key costs no write per call.
    await tx.execute(
      sql`update api_keys set last_used_at = now() where id = ${key.id} and account_id = ${key.accountId}
          and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
    );
    return {
      caller: {
        accountId: key.accountId,
        projectId: key.projectId,
        userId: key.userId,
        keyId: key.id,
        source: 'agent',
      },
      projectActive: project !== undefined,
      plan: subscription?.plan ?? 'self-hosted',
      subscription:
        subscription && isSubscriptionStatus(subscription.status)
          ? { ...subscription, status: subscription.status }
          : undefined,
    };
  });
}
