/** A secret found in a text: the half-open range [start, end) and the kind named in the placeholder. */
export interface SecretFinding {
  readonly start: number;
  readonly end: number;
  readonly kind: string;
  /** Where the finding came from; when findings overlap, the maintained rule set wins a tie. */
  readonly source: 'secretlint' | 'specific' | 'generic';
}

/** The text without the trailing characters listed in `chars` (a loop: a `[…]+$` pattern is quadratic). */
export function trimEnd(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1] ?? '')) end -= 1;
  return text.slice(0, end);
}

/** The text without the leading characters listed in `chars`. */
export function trimStart(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start] ?? '')) start += 1;
  return text.slice(start);
}
