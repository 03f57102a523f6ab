import type { Db } from '@mmw/db';
import { auditForUser } from '../../audit/audit-for-user.ts';
import { AppError } from '../../errors.ts';
import { createSession, invalidateSession, type NewSession, type ValidSession } from '../sessions.ts';
import type { SecretBox } from './secret-box.ts';
import { verifySecondFactor } from './verify-code.ts';

/**
 * The second step of signing in: a right code (authenticator, or a recovery code once) turns the
 * pending session into a full one. The pending session ends and a new token is issued, so the token
 * that only knew the password never signs anyone in.
 */
export async function completeSecondFactor(db: Db, session: ValidSession, code: string, secrets: SecretBox): Promise<NewSession> {
  if (!session.secondFactorPending) throw new AppError('conflict', 'already signed in');
  const kind = await verifySecondFactor(db, session.user.id, code, { enrolment: false, recoveryCodes: true, secrets });
  await invalidateSession(db, session.id);
  const full = await createSession(db, session.user.id);
  await auditForUser(db, session.user.id, {
    action: 'user.signed_in',
    targetType: 'user',
    targetId: session.user.id,
    data: { secondFactor: kind },
  });
  return full;
}
