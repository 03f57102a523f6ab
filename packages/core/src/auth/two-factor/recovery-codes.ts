import { and, eq, isNull } from 'drizzle-orm';
import { recoveryCodes, type Db } from '@mmw/db';
import { generateSecretToken, hashSecretToken } from '../session-token.ts';

export const RECOVERY_CODE_COUNT = 10;

/** Lowercase base32 letters and digits, dashes and spaces ignored: what a person types back. */
function normalise(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/** New recovery codes replace the old ones; only their SHA-256 is stored. Shown once, by the caller. */
export async function replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
  // 16 base32 characters (80 bits) each, in groups of four.
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => generateSecretToken().slice(0, 16).replace(/(.{4})(?!$)/g, '$1-'));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashSecretToken(normalise(code)) })));
  return codes;
}

/** True when the code is one of the user's unused recovery codes; it is used up in the same statement. */
export async function useRecoveryCode(tx: Db, userId: string, code: string): Promise<boolean> {
  const normalised = normalise(code);
  if (!/^[a-z2-7]{16}$/.test(normalised)) return false;
  const used = await tx
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashSecretToken(normalised)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length > 0;
}

/** Recovery codes not used yet. */
export async function remainingRecoveryCodes(tx: Db, userId: string): Promise<number> {
  const rows = await tx
    .select({ id: recoveryCodes.id })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return rows.length;
}
