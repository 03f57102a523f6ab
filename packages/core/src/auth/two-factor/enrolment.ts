import { eq } from 'drizzle-orm';
import { recoveryCodes, twoFactorCredentials, users, withUser, type Db } from '@mmw/db';
import { z } from 'zod';
import { auditForUser } from '../../audit/audit-for-user.ts';
import { AppError } from '../../errors.ts';
import { remainingRecoveryCodes, replaceRecoveryCodes } from './recovery-codes.ts';
import type { SecretBox } from './secret-box.ts';
import { newTotpSecret, totpKeyUri } from './totp-code.ts';
import { verifySecondFactor } from './verify-code.ts';

export const codeSchema = z.string().trim().min(1, 'enter the code').max(40);

export const twoFactorStatusSchema = z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number() });
export const twoFactorEnrolmentSchema = z.object({ secret: z.string(), uri: z.string() });

export async function twoFactorStatus(db: Db, userId: string): Promise<z.infer<typeof twoFactorStatusSchema>> {
  return withUser(db, userId, async (tx) => {
    const [user] = await tx.select({ enabledAt: users.twoFactorEnabledAt }).from(users).where(eq(users.id, userId));
    const enabled = user?.enabledAt != null;
    return { enabled, recoveryCodesLeft: enabled ? await remainingRecoveryCodes(tx, userId) : 0 };
  });
}

/**
 * Starts (or starts again) enrolment: a new secret, shown now as text and as an otpauth URI for the
 * QR code, and never returned again. It takes effect once a code from it is confirmed.
 */
export async function startTwoFactorEnrolment(
  db: Db,
  user: { id: string; email: string },
  secrets: SecretBox,
): Promise<z.infer<typeof twoFactorEnrolmentSchema>> {
  const secret = newTotpSecret();
  const stored = secrets.seal(secret, user.id);
  await withUser(db, user.id, async (tx) => {
    const [row] = await tx.select({ enabledAt: users.twoFactorEnabledAt }).from(users).where(eq(users.id, user.id));
    if (row?.enabledAt != null) throw new AppError('conflict', 'two-factor sign-in is already on; turn it off first to enrol again');
    await tx
      .insert(twoFactorCredentials)
      .values({ userId: user.id, secret: stored })
      .onConflictDoUpdate({
        target: twoFactorCredentials.userId,
        set: { secret: stored, confirmedAt: null, lastUsedStep: null, createdAt: new Date() },
      });
  });
  return { secret, uri: totpKeyUri(secret, user.email) };
}

/** The first right code turns two-factor sign-in on; the recovery codes are returned this once. */
export async function confirmTwoFactorEnrolment(db: Db, userId: string, code: string, secrets: SecretBox): Promise<{ recoveryCodes: string[] }> {
  await verifySecondFactor(db, userId, code, { enrolment: true, recoveryCodes: false, secrets });
  const codes = await withUser(db, userId, async (tx) => {
    const now = new Date();
    await tx.update(twoFactorCredentials).set({ confirmedAt: now }).where(eq(twoFactorCredentials.userId, userId));
    await tx.update(users).set({ twoFactorEnabledAt: now }).where(eq(users.id, userId));
    return replaceRecoveryCodes(tx, userId);
  });
  await auditForUser(db, userId, { action: 'user.two_factor_enabled', targetType: 'user', targetId: userId });
  return { recoveryCodes: codes };
}

/** Turning it off takes a code (authenticator or recovery): a stolen session alone cannot. */
export async function disableTwoFactor(db: Db, userId: string, code: string, secrets: SecretBox): Promise<void> {
  await verifySecondFactor(db, userId, code, { enrolment: false, recoveryCodes: true, secrets });
  await withUser(db, userId, async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(twoFactorCredentials).where(eq(twoFactorCredentials.userId, userId));
    await tx.update(users).set({ twoFactorEnabledAt: null }).where(eq(users.id, userId));
  });
  await auditForUser(db, userId, { action: 'user.two_factor_disabled', targetType: 'user', targetId: userId });
}
