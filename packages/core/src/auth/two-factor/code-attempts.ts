import { eq } from 'drizzle-orm';
import { executeSqlOn, twoFactorCredentials, withUser, type Db } from '@mmw/db';
import { AppError } from '../../errors.ts';

/** Codes (authenticator or recovery) a user may try in a window before waiting for the next. */
export const CODE_ATTEMPTS = 5;
export const CODE_WINDOW_MINUTES = 15;

/**
 * Counts one attempt before the code is checked, in a statement of its own that commits whatever
 * the check finds: parallel guesses each take a place, and the sixth in a window is refused.
 */
const RESERVE = `update two_factor_credentials set
    failures = case when window_start < now() - make_interval(mins => ${CODE_WINDOW_MINUTES}) then 1 else failures + 1 end,
    window_start = case when window_start < now() - make_interval(mins => ${CODE_WINDOW_MINUTES}) then now() else window_start end
  where user_id = $1::uuid
    and (failures < ${CODE_ATTEMPTS} or window_start < now() - make_interval(mins => ${CODE_WINDOW_MINUTES}))
  returning failures`;

export async function reserveCodeAttempt(db: Db, userId: string): Promise<void> {
  const { rows } = await withUser(db, userId, (tx) => executeSqlOn(tx)(RESERVE, [userId]));
  if (rows.length === 0) {
    throw new AppError('rate_limited', `too many codes tried; wait ${CODE_WINDOW_MINUTES} minutes and try again`, {
      retryAfterSeconds: CODE_WINDOW_MINUTES * 60,
    });
  }
}

/** A right code gives the attempts back. */
export async function clearCodeAttempts(tx: Db, userId: string): Promise<void> {
  await tx.update(twoFactorCredentials).set({ failures: 0 }).where(eq(twoFactorCredentials.userId, userId));
}
