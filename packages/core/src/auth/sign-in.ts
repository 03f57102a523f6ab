import { eq } from 'drizzle-orm';
import { users, withUserEmail, type Db } from '@mmw/db';
import { auditForUser } from '../audit/audit-for-user.ts';
import { AppError } from '../errors.ts';
import type { SignInInput } from './credentials.ts';
import { forgetAttempts, loginBuckets, reserveAttempt } from './login-throttle.ts';
import { verifyDecoy, verifyPassword } from './password.ts';
import { createSession, type NewSession, type SessionUser } from './sessions.ts';

const refused = () => new AppError('unauthorized', 'email or password is incorrect');

/** Signs in with email and password; throttled per email and per client address. */
export async function signIn(
  db: Db,
  input: SignInInput,
  client: { address: string },
): Promise<{ user: SessionUser; session: NewSession; secondFactorRequired: boolean }> {
  const buckets = loginBuckets(input.email, client.address);
  // Reserved before the password is verified: parallel guesses cannot pass the limit.
  await reserveAttempt(db, buckets, 'too many sign-in attempts; try again later');
  const [user] = await withUserEmail(db, input.email, (tx) =>
    tx
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        passwordHash: users.passwordHash,
        twoFactorEnabledAt: users.twoFactorEnabledAt,
        verifiedAt: users.emailVerifiedAt,
      })
      .from(users)
      .where(eq(users.email, input.email)),
  );
  const ok =
    user?.passwordHash != null
      ? await verifyPassword(user.passwordHash, input.password)
      : await verifyDecoy(input.password);
  if (!user || !ok) {
    if (user)
      await auditForUser(db, user.id, {
        action: 'user.sign_in_failed',
        targetType: 'user',
        targetId: user.id,
      });
    throw refused();
  }
  await forgetAttempts(db, buckets);
  // With two-factor sign-in on, the password opens only a pending session: the code comes next
  // (two-factor/second-factor-sign-in.ts), which records the sign-in.
  const secondFactorRequired = user.twoFactorEnabledAt !== null;
  const session = await createSession(db, user.id, new Date(), { secondFactorPending: secondFactorRequired });
  if (!secondFactorRequired)
    await auditForUser(db, user.id, { action: 'user.signed_in', targetType: 'user', targetId: user.id });
  return {
    user: { id: user.id, email: user.email, name: user.name, emailVerified: user.verifiedAt !== null },
    session,
    secondFactorRequired,
  };
}
