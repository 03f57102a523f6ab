/**
 * How search reads a query: split into words on anything that is not a letter or digit, the way
 * the records' text is indexed. What each word matches is in query-terms.ts. Words hold only
 * letters and digits, so they go into a tsquery without escaping.
 */
export const MAX_QUERY_WORDS = 16;

export function splitQueryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

export function clampLimit(limit: number | null | undefined, fallback = 10): number {
  if (limit === null || limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(50, Math.max(1, Math.trunc(limit)));
}
