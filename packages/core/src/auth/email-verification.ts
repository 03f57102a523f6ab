import { and, eq, sql } from 'drizzle-orm';
import { emailVerifications, users, withUser, type Db } from '@mmw/db';
import { auditForUser } from '../audit/audit-for-user.ts';
import { AppError } from '../errors.ts';
import { reserveAttempt } from './login-throttle.ts';
import { generateSecretToken, hashSecretToken, isWellFormedToken } from './session-token.ts';

const VERIFICATION_LIFETIME_MS = 24 * 60 * 60 * 1000;
const LINKS_PER_USER = 5;

const linkRefused = () => new AppError('not_found', 'this verification link is unknown, expired or already used');

/**
 * A link that proves the user reads mail at their address: the token goes into the mail alone, the
 * table keeps its SHA-256. Invitations bind by email, so one is accepted only by a verified address.
 */
export async function createEmailVerification(db: Db, userId: string, now = new Date()): Promise<{ email: string; token: string }> {
  await reserveAttempt(db, [{ bucket: `verify-mail:${hashSecretToken(userId)}`, limit: LINKS_PER_USER }], 'too many verification mails; try again later');
  const token = generateSecretToken();
  return withUser(db, userId, async (tx) => {
    const [user] = await tx.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('not_found', 'user not found');
    if (user.verifiedAt !== null) throw new AppError('conflict', 'this email address is already verified');
    await tx.insert(emailVerifications).values({
      tokenHash: hashSecretToken(token),
      userId,
      email: user.email,
      expiresAt: new Date(now.getTime() + VERIFICATION_LIFETIME_MS),
    });
    return { email: user.email, token };
  });
}

/** Follows a link: the address it was sent to is verified, if it is still the user's. */
export async function verifyEmail(db: Db, token: string, now = new Date()): Promise<{ email: string }> {
  if (!isWellFormedToken(token)) throw linkRefused();
  const tokenHash = hashSecretToken(token);
  const verified = await db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('mmw.verification_hash', ${tokenHash}, true)`);
    const [link] = await tx.delete(emailVerifications).where(eq(emailVerifications.tokenHash, tokenHash)).returning();
    if (!link || link.expiresAt.getTime() <= now.getTime()) return undefined;
    await tx.execute(sql`select set_config('mmw.user_id', ${link.userId}, true)`);
    const [user] = await tx
      .update(users)
      .set({ emailVerifiedAt: now })
      .where(and(eq(users.id, link.userId), eq(users.email, link.email)))
      .returning({ id: users.id, email: users.email });
    return user;
  });
  if (!verified) throw linkRefused();
  await auditForUser(db, verified.id, { action: 'user.email_verified', targetType: 'user', targetId: verified.id });
  return { email: verified.email };
}

export async function assertEmailVerified(db: Db, userId: string): Promise<string> {
  const [user] = await withUser(db, userId, (tx) =>
    tx.select({ email: users.email, verifiedAt: users.emailVerifiedAt }).from(users).where(eq(users.id, userId)),
  );
  if (!user) throw new AppError('not_found', 'user not found');
  if (user.verifiedAt === null) {
    throw new AppError('forbidden', `verify your email address first: open the link sent to ${user.email}`);
  }
  return user.email;
}
