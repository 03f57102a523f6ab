import { AppError } from '../errors.ts';
import { verifyPassword } from './password.ts';

/** A new password must differ from the current one (a reset or a change that changes nothing is refused). */
export async function assertPasswordIsNew(currentHash: string | null, newPassword: string): Promise<void> {
  if (currentHash !== null && (await verifyPassword(currentHash, newPassword))) {
    throw new AppError('invalid_input', 'the new password must differ from the current one');
  }
}
