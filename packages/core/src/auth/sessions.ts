import { and, eq, ne } from 'drizzle-orm';
import { sessions, users, withSessionHash, withUser, type Db } from '@mmw/db';
import { generateSecretToken, hashSecretToken, isWellFormedToken } from './session-token.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** A session waiting for its second factor lasts this long, and is never extended. */
export const PENDING_SESSION_LIFETIME_MS = 10 * 60 * 1000;
/** A session used within its last 15 days is extended to 30 days again: sliding expiry. */
const RENEW_WITHIN_MS = 15 * DAY_MS;

export interface SessionUser {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
}

/** The signed-in user as a request sees them: with their two-factor state. */
export interface SessionPerson extends SessionUser {
  twoFactorEnabled: boolean;
}

export interface ValidSession {
  id: string;
  user: SessionPerson;
  /** Password given, second factor not yet: the session signs in to nothing but that step. */
  secondFactorPending: boolean;
  expiresAt: Date;
  /** True when this validation extended the session: the cookie is to be sent again. */
  renewed: boolean;
}

export interface NewSession {
  token: string;
  id: string;
  expiresAt: Date;
}

export async function createSession(
  db: Db,
  userId: string,
  now = new Date(),
  options: { secondFactorPending?: boolean } = {},
): Promise<NewSession> {
  const token = generateSecretToken();
  const id = hashSecretToken(token);
  const secondFactorPending = options.secondFactorPending === true;
  const expiresAt = new Date(now.getTime() + (secondFactorPending ? PENDING_SESSION_LIFETIME_MS : SESSION_LIFETIME_MS));
  await withUser(db, userId, (tx) => tx.insert(sessions).values({ id, userId, expiresAt, createdAt: now, secondFactorPending }));
  return { token, id, expiresAt };
}

/** The session a cookie's token names, extended when due; undefined for an unknown or expired one. */
export async function validateSessionToken(db: Db, token: string, now = new Date()): Promise<ValidSession | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const id = hashSecretToken(token);
  return withSessionHash(db, id, async (tx) => {
    const [row] = await tx
      .select({
        id: sessions.id,
        expiresAt: sessions.expiresAt,
        secondFactorPending: sessions.secondFactorPending,
        userId: users.id,
        email: users.email,
        name: users.name,
        twoFactorEnabledAt: users.twoFactorEnabledAt,
        verifiedAt: users.emailVerifiedAt,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(sessions.id, id));
    if (!row) return undefined;
    if (now.getTime() >= row.expiresAt.getTime()) {
      await tx.delete(sessions).where(eq(sessions.id, id));
      return undefined;
    }
    let expiresAt = row.expiresAt;
    const renewed = !row.secondFactorPending && expiresAt.getTime() - now.getTime() < RENEW_WITHIN_MS;
    if (renewed) {
      expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
      await tx.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
    }
    return {
      id,
      expiresAt,
      renewed,
      secondFactorPending: row.secondFactorPending,
      user: {
        id: row.userId,
        email: row.email,
        name: row.name,
        emailVerified: row.verifiedAt !== null,
        twoFactorEnabled: row.twoFactorEnabledAt !== null,
      },
    };
  });
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await withSessionHash(db, sessionId, (tx) => tx.delete(sessions).where(eq(sessions.id, sessionId)));
}

/** Ends every session of the user, or every one but `except` (the one changing the password). */
export async function invalidateUserSessions(db: Db, userId: string, except?: string): Promise<number> {
  return withUser(db, userId, async (tx) => {
    const ended = await tx
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), except === undefined ? undefined : ne(sessions.id, except)))
      .returning({ id: sessions.id });
    return ended.length;
  });
}
