import { describe, expect, it } from 'vitest';
import { clampLimit, MAX_QUERY_WORDS, splitQueryWords } from '../src/memory/query-words.ts';

describe('query words', () => {
  it('splits on anything that is not a letter or digit, lowercases and dedupes', () => {
    expect(splitQueryWords('How do we deploy app-staging? Deploy!')).toEqual(['how', 'do', 'we', 'deploy', 'app', 'staging']);
    expect(splitQueryWords('  ')).toEqual([]);
    expect(splitQueryWords('Größe données 東京')).toEqual(['größe', 'données', '東京']);
    expect(splitQueryWords("x' | y & !z:*")).toEqual(['x', 'y', 'z']);
  });

  it('keeps at most the first 16 words', () => {
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    expect(splitQueryWords(many)).toHaveLength(MAX_QUERY_WORDS);
  });

  it('clamps the limit to 1..50 with 10 by default', () => {
    expect(clampLimit(undefined)).toBe(10);
    expect(clampLimit(null)).toBe(10);
    expect(clampLimit(0)).toBe(1);
    expect(clampLimit(-5)).toBe(1);
    expect(clampLimit(51)).toBe(50);
    expect(clampLimit(7.9)).toBe(7);
    expect(clampLimit(Number.NaN)).toBe(10);
  });
});
