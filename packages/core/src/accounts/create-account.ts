import { randomUUID } from 'node:crypto';
import { accounts, memberships, projects, subscriptions, withTenant, type Db } from '@mmw/db';
import { recordAudit } from '../audit/record-audit.ts';
import { generateSecretToken } from '../auth/session-token.ts';
import type { NewAccountSubscription } from '../billing/billing.ts';
import { personTrialEnd } from '../billing/person-trial.ts';

export const DEFAULT_PROJECT = 'default';

export interface CreatedAccount {
  accountId: string;
  projectId: string;
  slug: string;
}

function slugFor(name: string): string {
  const base = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `${base || 'account'}-${generateSecretToken().slice(0, 6)}`;
}

/**
 * A new account, owned by the user, with its first project. The id is chosen here so that the
 * whole creation runs as the new tenant, never across tenants.
 */
export async function createAccount(
  db: Db,
  input: {
    kind: 'personal' | 'organization';
    name: string;
    ownerUserId: string;
    /** What billing gives a new account; the self-hosted plan with no end by default. */
    subscription?: NewAccountSubscription | undefined;
  },
): Promise<CreatedAccount> {
  const accountId = randomUUID();
  const slug = slugFor(input.name);
  return withTenant(db, accountId, async (tx) => {
    await tx.insert(accounts).values({
      id: accountId,
      kind: input.kind,
      slug,
      name: input.name,
      nameHolderUserId: input.kind === 'organization' ? input.ownerUserId : null,
    });
    await tx.insert(memberships).values({ accountId, userId: input.ownerUserId, role: 'owner' });
    // Without billing, every account has an active self-hosted subscription with no end; with
    // billing, the Free trial, until a Stripe subscription replaces it.
    const subscription = await startingSubscription(tx, input.ownerUserId, input.subscription);
    await tx.insert(subscriptions).values({ accountId, ...subscription }).onConflictDoNothing();
    if (subscription.plan !== 'self-hosted') {
      await recordAudit(tx, {
        accountId,
        action: 'subscription.changed',
        actorUserId: input.ownerUserId,
        data: { status: subscription.status, plan: subscription.plan, periodEnd: subscription.currentPeriodEnd?.toISOString() ?? null, via: 'sign-up' },
      });
    }
    const [project] = await tx
      .insert(projects)
      .values({ accountId, name: DEFAULT_PROJECT })
      .returning({ id: projects.id });
    if (!project) throw new Error('project was not created');
    return { accountId, projectId: project.id, slug };
  });
}

/**
 * The Free trial is the owner's one trial: an organization they create while it runs ends it with
 * them; one created after it ended starts without a subscription, and memory works once it subscribes.
 */
async function startingSubscription(
  tx: Db,
  ownerUserId: string,
  given: NewAccountSubscription | undefined,
): Promise<{ status: 'active' | 'trialing' | 'none'; plan: string; currentPeriodEnd: Date | null }> {
  if (given === undefined) return { status: 'active', plan: 'self-hosted', currentPeriodEnd: null };
  if (given.status !== 'trialing' || given.currentPeriodEnd === null) return given;
  const ends = await personTrialEnd(tx, ownerUserId, given.currentPeriodEnd);
  return ends > given.startsAt
    ? { status: 'trialing', plan: given.plan, currentPeriodEnd: ends }
    : { status: 'none', plan: given.plan, currentPeriodEnd: null };
}
