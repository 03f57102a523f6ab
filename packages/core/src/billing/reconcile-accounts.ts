import { asc, eq, isNotNull } from 'drizzle-orm';
import { accounts, subscriptions, withSystem } from '@mmw/db';
import { AppError } from '../errors.ts';
import { gatewayFromConfig } from './stripe-gateway.ts';
import { syncAccountFromStripe, type SyncDeps, type SyncOutcome } from './sync-account.ts';

export interface ReconciledAccount {
  account: string;
  /** What the sync did; 'failed' when Stripe could not be asked (the daily run tries again). */
  outcome: SyncOutcome | 'failed';
}

/**
 * The reconciliation, now and in this process: each account Stripe knows (or the one named by its
 * slug) is made what Stripe says, one after another, as the daily job's syncs do. An account that
 * fails does not stop the others.
 */
export async function reconcileAccounts(deps: SyncDeps, options: { account?: string | undefined } = {}): Promise<ReconciledAccount[]> {
  const billed = await withSystem(deps.db, (tx) => {
    const query = tx
      .select({ id: accounts.id, slug: accounts.slug, customerId: subscriptions.stripeCustomerId })
      .from(accounts)
      .leftJoin(subscriptions, eq(subscriptions.accountId, accounts.id));
    return options.account === undefined
      ? query.where(isNotNull(subscriptions.stripeCustomerId)).orderBy(asc(accounts.slug))
      : query.where(eq(accounts.slug, options.account));
  });
  if (options.account !== undefined && billed.length === 0) {
    throw new AppError('not_found', `account '${options.account}' not found`);
  }
  const done: ReconciledAccount[] = [];
  for (const { id, slug } of billed) {
    const outcome = await syncAccountFromStripe(deps, id, { via: 'reconciliation' }).catch(() => 'failed' as const);
    done.push({ account: slug, outcome });
  }
  return done;
}

/** The operator's `mmw billing reconcile [--account A]`: with the server's Stripe settings. */
export async function reconcileByOperator(
  deps: Omit<SyncDeps, 'gateway' | 'now'> & { now?: () => Date },
  options: { account?: string | undefined } = {},
): Promise<ReconciledAccount[]> {
  const gateway = gatewayFromConfig(deps.config);
  if (gateway === undefined) {
    throw new AppError('invalid_input', 'billing is off on this server (STRIPE_SECRET_KEY is not set): there is nothing to reconcile');
  }
  return reconcileAccounts({ db: deps.db, config: deps.config, gateway, now: deps.now ?? (() => new Date()) }, options);
}
