import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, hashesEqual, isWellFormedApiKey } from '../src/keys/api-key.ts';

describe('API keys', () => {
  it('have the mmw_ prefix, base62 body and a checksum that catches typos', () => {
    const { key, hash, prefix } = generateApiKey();
    expect(key).toMatch(/^mmw_[0-9A-Za-z]{36}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(prefix).toBe(key.slice(0, 12));
    expect(hash).toBe(hashApiKey(key));
    expect(hash).not.toContain(key.slice(4));
    const typo = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`xyz_${key.slice(4)}`)).toBe(false);
  });

  it('are unique and compared in constant time', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
    const { hash } = generateApiKey();
    expect(hashesEqual(hash, hash)).toBe(true);
    expect(hashesEqual(hash, hashApiKey('other'))).toBe(false);
    expect(hashesEqual(hash, 'abc')).toBe(false);
  });
});
