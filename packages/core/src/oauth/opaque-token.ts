import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../keys/api-key.ts';

/**
 * Opaque OAuth secrets: a prefix naming the kind and 32 random bytes, base64url. None starts with
 * "mmw_", so the MCP ingress tells them from keys by the prefix alone. Only their SHA-256 is kept,
 * with the same helper as keys.
 */
export const TOKEN_PREFIXES = { access: 'mmwa_', refresh: 'mmwr_', code: 'mmwc_', secret: 'mmws_' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIXES;

const SHAPE = /^mmw[arcs]_[\w-]{43}$/;

export function newOpaqueToken(kind: TokenKind): { token: string; hash: string } {
  const token = `${TOKEN_PREFIXES[kind]}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashApiKey(token) };
}

/** True when the text has the shape of a token of this kind; says nothing of whether it exists. */
export function isOpaqueToken(text: string, kind: TokenKind): boolean {
  return text.startsWith(TOKEN_PREFIXES[kind]) && SHAPE.test(text);
}

export const hashOpaqueToken = hashApiKey;
