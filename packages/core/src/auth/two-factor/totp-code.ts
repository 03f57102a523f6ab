import { decodeBase32IgnorePadding, encodeBase32NoPadding } from '@oslojs/encoding';
import { createTOTPKeyURI, verifyHOTP } from '@oslojs/otp';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
const CODE_PATTERN = /^\d{6}$/;

/** A new TOTP secret: 20 random bytes (160 bits, as RFC 4226 recommends), base32 as apps show it. */
export function newTotpSecret(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32NoPadding(bytes);
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function totpKeyUri(secret: string, accountName: string): string {
  return createTOTPKeyURI('MMW', accountName, decodeBase32IgnorePadding(secret), TOTP_PERIOD_SECONDS, TOTP_DIGITS);
}

/**
 * The time step a code belongs to, within one step of now either way (clock drift), or undefined.
 * Only steps after `lastUsedStep` count: a code used once is refused for the rest of its window.
 */
export function matchingStep(secret: string, code: string, lastUsedStep: number | null, now = Date.now()): number | undefined {
  const trimmed = code.replace(/\s/g, '');
  if (!CODE_PATTERN.test(trimmed)) return undefined;
  const key = decodeBase32IgnorePadding(secret);
  const current = Math.floor(now / (TOTP_PERIOD_SECONDS * 1000));
  for (const step of [current - 1, current, current + 1]) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue;
    if (verifyHOTP(key, BigInt(step), TOTP_DIGITS, trimmed)) return step;
  }
  return undefined;
}
