import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';

/** The code an authenticator app shows for the secret, `offset` 30-second steps from now. */
export function totpCode(secret: string, offset = 0): string {
  const step = Math.floor(Date.now() / 30_000) + offset;
  return generateHOTP(decodeBase32IgnorePadding(secret), BigInt(step), 6);
}
