/**
 * How search reads a query: split into words on anything that is not a letter or digit, the way
 * the records' text is indexed; a word matches a record when a word of the record starts with it.
 */
export const MAX_QUERY_WORDS = 16;

export function splitQueryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

/** A tsquery term for one word; words hold only letters and digits, so nothing needs escaping. */
export function prefixTerm(word: string): string {
  return `${word}:*`;
}

export function clampLimit(limit: number | null | undefined, fallback = 10): number {
  if (limit === null || limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(50, Math.max(1, Math.trunc(limit)));
}
