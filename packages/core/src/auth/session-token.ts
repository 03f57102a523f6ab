import { sha256 } from '@oslojs/crypto/sha2';
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding';

// As Lucia's authors teach: 20 random bytes (160 bits) as lowercase base32; the database keeps only
// the SHA-256 of the token, so a leaked sessions table signs nobody in.
const TOKEN_PATTERN = /^[a-z2-7]{32}$/;

export function generateSecretToken(): string {
  const bytes = new Uint8Array(20);
  crypto.getRandomValues(bytes);
  return encodeBase32LowerCaseNoPadding(bytes);
}

export function isWellFormedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

export function hashSecretToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}
