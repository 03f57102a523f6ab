import { eq } from 'drizzle-orm';
import { twoFactorCredentials, withUser, type Db } from '@mmw/db';
import { AppError } from '../../errors.ts';
import { clearCodeAttempts, reserveCodeAttempt } from './code-attempts.ts';
import { useRecoveryCode } from './recovery-codes.ts';
import type { SecretBox } from './secret-box.ts';
import { matchingStep } from './totp-code.ts';

export type SecondFactorKind = 'totp' | 'recovery_code';

export const wrongCode = () => new AppError('invalid_input', 'the code is not correct');
export const noTwoFactor = () => new AppError('conflict', 'two-factor sign-in is not set up');

/**
 * Checks a code of the user's authenticator (confirmed secret, or the one being enrolled) or, where
 * allowed, one of their recovery codes. Each attempt is counted first (code-attempts.ts); a right
 * code is used up: the TOTP step cannot be used again, the recovery code is spent.
 */
export async function verifySecondFactor(
  db: Db,
  userId: string,
  code: string,
  options: { enrolment: boolean; recoveryCodes: boolean; secrets: SecretBox },
): Promise<SecondFactorKind> {
  const [credential] = await withUser(db, userId, (tx) =>
    tx.select({ confirmedAt: twoFactorCredentials.confirmedAt }).from(twoFactorCredentials).where(eq(twoFactorCredentials.userId, userId)),
  );
  if (!credential || (credential.confirmedAt === null) !== options.enrolment) throw noTwoFactor();
  await reserveCodeAttempt(db, userId);
  const kind = await withUser(db, userId, async (tx) => {
    const [row] = await tx
      .select({ secret: twoFactorCredentials.secret, lastUsedStep: twoFactorCredentials.lastUsedStep })
      .from(twoFactorCredentials)
      .where(eq(twoFactorCredentials.userId, userId))
      .for('update');
    if (!row) return undefined;
    const step = matchingStep(options.secrets.open(row.secret, userId), code, row.lastUsedStep);
    if (step !== undefined) {
      await tx.update(twoFactorCredentials).set({ lastUsedStep: step }).where(eq(twoFactorCredentials.userId, userId));
      await clearCodeAttempts(tx, userId);
      return 'totp' as const;
    }
    if (options.recoveryCodes && (await useRecoveryCode(tx, userId, code))) {
      await clearCodeAttempts(tx, userId);
      return 'recovery_code' as const;
    }
    return undefined;
  });
  if (kind === undefined) throw wrongCode();
  return kind;
}
