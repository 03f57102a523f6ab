const SNIPPET_CHARS = 300;

/** A window of the text around the first word of the query it holds, marked as a quote. */
export function snippetOf(text: string, words: readonly string[]): string {
  const lower = text.toLowerCase();
  let first = -1;
  for (const word of words) {
    const at = lower.indexOf(word);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  const start = first < SNIPPET_CHARS / 3 ? 0 : first - Math.floor(SNIPPET_CHARS / 3);
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const body = `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
  return `[transcript quote] ${body}`;
}
