import { eq } from 'drizzle-orm';
import { users, withUser, type Db } from '@mmw/db';
import { auditForUser } from '../audit/audit-for-user.ts';
import { AppError } from '../errors.ts';
import { assertPasswordAcceptable, hashPassword, verifyPassword } from './password.ts';
import { assertPasswordIsNew } from './password-reuse.ts';
import { invalidateUserSessions } from './sessions.ts';
import { forgetAttempts, passwordCheckBuckets, reserveAttempt } from './login-throttle.ts';

/** Changes the password and ends every other session of the user; the current one stays. */
export async function changePassword(
  db: Db,
  input: { userId: string; sessionId: string; currentPassword: string; newPassword: string },
): Promise<{ endedSessions: number }> {
  assertPasswordAcceptable(input.newPassword);
  const buckets = passwordCheckBuckets(input.userId);
  await reserveAttempt(db, buckets, 'too many password attempts; try again later');
  const [user] = await withUser(db, input.userId, (tx) =>
    tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, input.userId)),
  );
  if (!user?.passwordHash || !(await verifyPassword(user.passwordHash, input.currentPassword))) {
    throw new AppError('invalid_input', 'the current password is incorrect');
  }
  await forgetAttempts(db, buckets);
  await assertPasswordIsNew(user.passwordHash, input.newPassword);
  const passwordHash = await hashPassword(input.newPassword);
  await withUser(db, input.userId, (tx) => tx.update(users).set({ passwordHash }).where(eq(users.id, input.userId)));
  const endedSessions = await invalidateUserSessions(db, input.userId, input.sessionId);
  await auditForUser(db, input.userId, { action: 'user.password_changed', targetType: 'user', targetId: input.userId });
  return { endedSessions };
}

/** Sign-out everywhere: every session of the user ends, this one included. */
export async function signOutEverywhere(db: Db, userId: string): Promise<{ endedSessions: number }> {
  const endedSessions = await invalidateUserSessions(db, userId);
  await auditForUser(db, userId, { action: 'user.signed_out_everywhere', targetType: 'user', targetId: userId });
  return { endedSessions };
}
