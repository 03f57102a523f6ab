/**
 * The text as the secret scanners should read it: NFKC (fullwidth letters become ASCII), invisible
 * characters dropped, percent-escapes and escaped quotes decoded, look-alike letters folded to Latin,
 * and a token split by single spaces or hyphens after a known prefix joined again. Every character of the view
 * remembers where it came from, so a secret found in the view is redacted in the original.
 */
import { foldConfusable, INVISIBLE_CHAR } from './normalize.ts';
import { TOKEN_PREFIX } from './secret-rules.ts';

export interface SecretView {
  readonly text: string;
  /** For each UTF-16 unit of the view, the offset in the original where its source starts. */
  readonly starts: readonly number[];
  /** For each UTF-16 unit of the view, the offset in the original just after its source. */
  readonly ends: readonly number[];
}

const HEX = /^[0-9a-fA-F]{2}$/;
/** Printable ASCII without `%` or `\`: nothing to decode, drop or fold, so the view is the text. */
const AS_IS = /^[\t\n\r\x20-\x24\x26-\x5b\x5d-\x7e]*$/;

export function secretView(original: string): SecretView {
  if (AS_IS.test(original)) {
    const starts = new Array<number>(original.length);
    const ends = new Array<number>(original.length);
    for (let k = 0; k < original.length; k += 1) {
      starts[k] = k;
      ends[k] = k + 1;
    }
    return { text: original, starts, ends };
  }
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  const emit = (piece: string, start: number, end: number) => {
    for (let k = 0; k < piece.length; k += 1) {
      starts.push(start);
      ends.push(end);
    }
    text += piece;
  };
  for (let i = 0; i < original.length; ) {
    const code = original.codePointAt(i) ?? 0;
    const char = String.fromCodePoint(code);
    const next = i + char.length;
    if (char === '%' && HEX.test(original.slice(i + 1, i + 3))) {
      let end = i + 3;
      let byte = parseInt(original.slice(i + 1, i + 3), 16);
      // Encoded again (`%255F`): the escaped `%` and the two hex digits after it are one escape.
      while (byte === 0x25 && HEX.test(original.slice(end, end + 2))) {
        byte = parseInt(original.slice(end, end + 2), 16);
        end += 2;
      }
      // Only printable ASCII is decoded: enough for `sk%5Flive` and a URL-encoded token.
      if (byte >= 0x20 && byte < 0x7f) {
        emit(String.fromCharCode(byte), i, end);
        i = end;
        continue;
      }
    }
    // A string escaped inside another (`"body":"{\\"password\\":\\"…\\"}"`) is read unescaped.
    if (char === '\\' && (original[next] === '"' || original[next] === '\\')) {
      emit(original[next] ?? '', i, next + 1);
      i = next + 1;
      continue;
    }
    if (INVISIBLE_CHAR.test(char)) {
      i = next;
      continue;
    }
    emit(foldConfusable(char.normalize('NFKC')), i, next);
    i = next;
  }
  return { text, starts, ends };
}

/** Whether the view differs from the original at all (most texts: no, and need no second scan). */
export function viewDiffers(original: string, view: SecretView): boolean {
  return view.text !== original;
}

/**
 * Tokens with a known prefix split by single spaces, hyphens or line breaks ("ghp_ABCD EFGH-IJKL …"):
 * the view with those separators dropped, offsets kept. Only runs after a prefix, so prose is left
 * alone.
 */
const SPLIT_PREFIX = TOKEN_PREFIX;
const SEPARATOR = /[ \n-]|\r\n/y;
const TOKEN_CHAR = /[A-Za-z0-9_]/;

export function joinSplitTokens(view: SecretView): SecretView {
  if (!SPLIT_PREFIX.test(view.text)) return view;
  SPLIT_PREFIX.lastIndex = 0;
  const drop = new Set<number>();
  for (const match of view.text.matchAll(SPLIT_PREFIX)) {
    let at = match.index + match[0].length;
    while (at < view.text.length) {
      const char = view.text[at] ?? '';
      SEPARATOR.lastIndex = at;
      const separator = TOKEN_CHAR.test(char) ? null : SEPARATOR.exec(view.text)?.[0];
      if (separator === null) at += 1;
      else if (separator !== undefined && isTokenPiece(view.text, at + separator.length)) {
        for (let k = 0; k < separator.length; k += 1) drop.add(at++);
      } else break;
    }
  }
  if (drop.size === 0) return view;
  let text = '';
  const starts: number[] = [];
  const ends: number[] = [];
  for (let k = 0; k < view.text.length; k += 1) {
    if (drop.has(k)) continue;
    text += view.text[k] ?? '';
    starts.push(view.starts[k] ?? 0);
    ends.push(view.ends[k] ?? 0);
  }
  return { text, starts, ends };
}

/**
 * A piece of a split token: at least four token characters, with a digit or a capital among them
 * past the first: a capitalised word ("Never", on the next line) starts a sentence, not a piece.
 */
function isTokenPiece(text: string, from: number): boolean {
  let end = from;
  while (end < text.length && end - from < 64 && TOKEN_CHAR.test(text[end] ?? '')) end += 1;
  const piece = text.slice(from, end);
  return piece.length >= 4 && /[0-9]|.[A-Z]/.test(piece);
}
