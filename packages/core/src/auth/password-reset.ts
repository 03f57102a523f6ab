import { and, eq, sql } from 'drizzle-orm';
import { passwordResets, sessions, users, withUser, withUserEmail, type Db } from '@mmw/db';
import { z } from 'zod';
import { auditForUser } from '../audit/audit-for-user.ts';
import { AppError } from '../errors.ts';
import { emailSchema } from './credentials.ts';
import { reserveAttempt } from './login-throttle.ts';
import { assertPasswordAcceptable, hashPassword } from './password.ts';
import { assertPasswordIsNew } from './password-reuse.ts';
import { generateSecretToken, hashSecretToken, isWellFormedToken } from './session-token.ts';

/** A reset link works for 30 minutes, once. */
export const PASSWORD_RESET_LIFETIME_MS = 30 * 60 * 1000;
const RESETS_PER_EMAIL = 5;
const RESETS_PER_ADDRESS = 20;

export const requestPasswordResetInputSchema = z.object({ email: emailSchema });
export const resetPasswordInputSchema = z.object({ token: z.string().max(100), newPassword: z.string().max(1024) });

const linkRefused = () => new AppError('not_found', 'this reset link is unknown, expired or already used; ask for a new one');

/**
 * "Forgot password?": a link for the address, if an account has it. The caller answers the same
 * either way (no account enumeration); the token goes into the mail alone, the table keeps its
 * SHA-256. Throttled per address and per client before anything is looked up.
 */
export async function requestPasswordReset(
  db: Db,
  input: { email: string },
  client: { address: string },
  now = new Date(),
): Promise<{ email: string; token: string } | undefined> {
  await reserveAttempt(
    db,
    [
      { bucket: `reset-email:${hashSecretToken(input.email)}`, limit: RESETS_PER_EMAIL },
      { bucket: `reset-address:${hashSecretToken(client.address)}`, limit: RESETS_PER_ADDRESS },
    ],
    'too many password reset requests; try again later',
  );
  const [user] = await withUserEmail(db, input.email, (tx) =>
    tx.select({ id: users.id, email: users.email }).from(users).where(eq(users.email, input.email)),
  );
  if (!user) return undefined;
  const token = generateSecretToken();
  await withUser(db, user.id, (tx) =>
    tx.insert(passwordResets).values({
      tokenHash: hashSecretToken(token),
      userId: user.id,
      email: user.email,
      expiresAt: new Date(now.getTime() + PASSWORD_RESET_LIFETIME_MS),
    }),
  );
  await auditForUser(db, user.id, { action: 'user.password_reset_requested', targetType: 'user', targetId: user.id });
  return { email: user.email, token };
}

/**
 * Sets a new password from a reset link: the link is spent (with every other link of the user),
 * every session ends, and the address counts as verified (the mail reached it). A refused new
 * password leaves the link usable.
 */
export async function resetPassword(db: Db, input: { token: string; newPassword: string }, now = new Date()): Promise<{ email: string }> {
  assertPasswordAcceptable(input.newPassword);
  if (!isWellFormedToken(input.token)) throw linkRefused();
  const tokenHash = hashSecretToken(input.token);
  const newHash = await hashPassword(input.newPassword);
  const reset = await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.reset_hash', ${tokenHash}, true)`);
    const [link] = await tx.delete(passwordResets).where(eq(passwordResets.tokenHash, tokenHash)).returning();
    if (!link || link.expiresAt.getTime() <= now.getTime()) return undefined;
    await tx.execute(sql`select set_config('mmw.user_id', ${link.userId}, true)`);
    const [user] = await tx
      .select({ id: users.id, passwordHash: users.passwordHash })
      .from(users)
      .where(and(eq(users.id, link.userId), eq(users.email, link.email)))
      .for('update');
    if (!user) return undefined;
    // Throws inside the transaction: the link is not spent by a refused password.
    await assertPasswordIsNew(user.passwordHash, input.newPassword);
    await tx
      .update(users)
      .set({ passwordHash: newHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
      .where(eq(users.id, user.id));
    await tx.delete(passwordResets).where(eq(passwordResets.userId, user.id));
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    return { userId: user.id, email: link.email };
  });
  if (!reset) throw linkRefused();
  await auditForUser(db, reset.userId, { action: 'user.password_reset', targetType: 'user', targetId: reset.userId });
  return { email: reset.email };
}
