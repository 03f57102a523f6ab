import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';

// Key format, as GitHub's tokens: a prefix, random base62 characters and a base62 CRC32 of them,
// so that a mistyped or truncated key is refused without a database round trip.
const PREFIX = 'mmw_';
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30; // 30 base62 characters: about 178 random bits
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
export const KEY_DISPLAY_LENGTH = 12;

function toBase62(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

function checksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

export interface NewApiKey {
  key: string;
  hash: string;
  prefix: string;
}

export function generateApiKey(): NewApiKey {
  let body = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) body += ALPHABET.charAt(randomInt(62));
  const key = `${PREFIX}${body}${checksum(body)}`;
  return { key, hash: hashApiKey(key), prefix: key.slice(0, KEY_DISPLAY_LENGTH) };
}

/** True when the text has the shape and checksum of a key; says nothing of whether it exists. */
export function isWellFormedApiKey(text: string): boolean {
  if (!KEY_PATTERN.test(text)) return false;
  const body = text.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  return text.slice(PREFIX.length + RANDOM_LENGTH) === checksum(body);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
