/**
 * How search reads a query: split into words on anything that is not a letter or digit, the way
 * the records' text is indexed. What each word matches is in query-terms.ts. Words hold only
 * letters and digits, so they go into a tsquery without escaping.
 */
export const MAX_QUERY_WORDS = 16;

/**
 * The longest word a record's word index holds, in UTF-8 bytes: PostgreSQL's 2,047 less the
 * workspace's tag (decision 0046). A longer query word is cut to it: no record word that long is
 * indexed, so it still finds nothing, instead of failing the statement.
 */
const MAX_WORD_BYTES = 2_039;

function fitted(word: string): string {
  if (Buffer.byteLength(word) <= MAX_WORD_BYTES) return word;
  let bytes = 0;
  let cut = '';
  for (const char of word) {
    bytes += Buffer.byteLength(char);
    if (bytes > MAX_WORD_BYTES) break;
    cut += char;
  }
  return cut;
}

export function splitQueryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0)
    .map(fitted);
  return [...new Set(words)].slice(0, MAX_QUERY_WORDS);
}

export function clampLimit(limit: number | null | undefined, fallback = 10): number {
  if (limit === null || limit === undefined || !Number.isFinite(limit)) return fallback;
  return Math.min(50, Math.max(1, Math.trunc(limit)));
}
