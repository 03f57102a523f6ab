import { eq } from 'drizzle-orm';
import { users, withUser, withUserEmail, type Db } from '@mmw/db';
import { createAccount } from '../accounts/create-account.ts';
import { auditForUser } from '../audit/audit-for-user.ts';
import type { NewAccountSubscription } from '../billing/billing.ts';
import { AppError } from '../errors.ts';
import type { SignUpInput } from './credentials.ts';
import { signUpBuckets, reserveAttempt } from './login-throttle.ts';
import { assertPasswordAcceptable, hashPassword } from './password.ts';
import { createSession, type NewSession, type SessionUser } from './sessions.ts';

/** A new user with a personal account (and its first project), signed in at once. */
export async function signUp(
  db: Db,
  input: SignUpInput,
  options: { subscription?: NewAccountSubscription | undefined; address: string; perAddress?: number },
): Promise<{ user: SessionUser; session: NewSession }> {
  assertPasswordAcceptable(input.password);
  // Each sign-up costs an argon2 hash, an account and a trial: a few per address per window.
  await reserveAttempt(
    db,
    signUpBuckets(options.address, options.perAddress),
    'too many sign-ups from this address; try again later',
  );
  const passwordHash = await hashPassword(input.password);
  const name = input.name === undefined || input.name === '' ? null : input.name;
  // users is global (a person belongs to many accounts); the unique email decides a race.
  const [user] = await withUserEmail(db, input.email, (tx) =>
    tx
      .insert(users)
      .values({ email: input.email, name, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id, email: users.email, name: users.name }),
  );
  // A new address is unverified until its owner follows the link mailed to it.
  if (!user) throw new AppError('conflict', 'an account with this email already exists; sign in instead');
  try {
    await createAccount(db, {
      kind: 'personal',
      name: name ?? input.email.split('@')[0] ?? 'personal',
      ownerUserId: user.id,
      subscription: options.subscription,
    });
  } catch (error) {
    await withUser(db, user.id, (tx) => tx.delete(users).where(eq(users.id, user.id)));
    throw error;
  }
  await auditForUser(db, user.id, { action: 'user.signed_up', targetType: 'user', targetId: user.id });
  return { user: { ...user, emailVerified: false }, session: await createSession(db, user.id) };
}
