/**
 * Text normalization for the planted-instruction check. The normalized text is only judged, never
 * stored: it folds away the tricks that make an instruction unreadable to a pattern but readable to
 * a model (compatibility forms, invisible characters, look-alike letters, spaced or leet spelling).
 */

/** Zero-width, joiner, bidi-control, soft-hyphen, variation-selector and filler characters. */
const INVISIBLE =
  /[\u00AD\u061C\u115F\u1160\u200B\u200C\u200E\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|\u034F|\u17B4|\u17B5|\u200D|\u180B|\u180C|\u180D|\u180E|\u180F|[\uFE00-\uFE0F]/g;
/** Unicode tag characters mirror ASCII invisibly ("ASCII smuggling"); they are decoded, not dropped. */
const TAG_CHARS = /[\u{E0000}-\u{E007F}]+/gu;
const RIGHT_TO_LEFT_OVERRIDE = '\u202E';

/** Cyrillic, Greek and Armenian letters that render like Latin ones. */
const CONFUSABLES: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  һ: 'h',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  ү: 'y',
  ь: 'b',
  А: 'A',
  В: 'B',
  Е: 'E',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Х: 'X',
  У: 'Y',
  Ѕ: 'S',
  І: 'I',
  Ј: 'J',
  Ԛ: 'Q',
  Ԝ: 'W',
  α: 'a',
  β: 'b',
  γ: 'y',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ω: 'w',
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
  օ: 'o',
  ս: 'u',
  հ: 'h',
  ո: 'n',
  ı: 'i',
};
/** One invisible character (see INVISIBLE), for readers that go character by character. */
export const INVISIBLE_CHAR = new RegExp(`^(?:${INVISIBLE.source})$`);

/** A look-alike letter as the Latin one it imitates; any other character as it is. */
export function foldConfusable(char: string): string {
  return CONFUSABLES[char] ?? char;
}

const CONFUSABLE_CLASS = `[${Object.keys(CONFUSABLES).join('')}]`;
const CONFUSABLE_CHAR = new RegExp(CONFUSABLE_CLASS);
const CONFUSABLE_CHARS = new RegExp(CONFUSABLE_CLASS, 'g');
/** Words as whole runs of letters and digits: a run is matched once, from its start. */
const WORD = /[\p{L}\p{N}]+/gu;
const LATIN_LETTER = /[a-z]/i;

/**
 * Leet spellings are undone for words that attacks lean on ("1gn0r3" becomes ignore), and for any
 * word of letters and leet characters alone that reads as a word of letters ("4ss1st4nt", "h77ps");
 * tokens with other digits, such as "sha256" or "k8s", are left alone.
 */
// prettier-ignore
const LEET_TARGETS = ['ignore', 'all', 'previous', 'prior', 'instructions', 'instruction', 'system',
  'prompt', 'disregard', 'reveal', 'secrets', 'secret', 'password', 'passwords', 'forget', 'rules', 'and',
  'send', 'api', 'keys', 'the', 'you', 'are', 'now', 'execute', 'your', 'print', 'output', 'override',
  'bypass'];
const LEET_TARGET_SET = new Set(LEET_TARGETS);
/** Leet characters; the word around each one is mapped and compared with the targets. */
const LEET_MARK = /[013457@$!]/g;
/** A leet character next to a letter that is not a hex digit: hashes and ids do not trip it. */
const LEET_DIGIT = /[g-z][013457@$!]|[013457@$!][g-z]/;
const LEET_CHAR: Readonly<Record<string, string>> = {
  '4': 'a',
  '@': 'a',
  '3': 'e',
  '1': 'i',
  '!': 'i',
  '0': 'o',
  '5': 's',
  $: 's',
  '7': 't',
};
/**
 * A word of letters only once mapped, long enough to mean something, with a leet character between
 * two letters ("t0k3n"): "14th" and "q3" are not leet.
 */
const LEET_WORD = /^[a-z]{4,40}$/;
const LEET_INSIDE = /[a-z][013457@$!]+[a-z]/;
const NON_ASCII = /[\u0080-\uffff]/;

export interface NormalizedText {
  /** Lowercased, folded, whitespace-collapsed text to judge. */
  readonly text: string;
  /** ASCII carried by invisible Unicode tag characters, if any. */
  readonly smuggled: string;
  /** The text read backwards when a right-to-left override was used to display it reversed. */
  readonly reversed: string | null;
}

/** NFKC with invisible characters removed: the text as a model effectively reads it, case kept. */
export function revealText(raw: string): string {
  return raw.normalize('NFKC').replace(TAG_CHARS, ' ').replace(INVISIBLE, '');
}

export function normalizeForGuard(raw: string): NormalizedText {
  const ascii = !NON_ASCII.test(raw);
  const compatible = ascii ? raw : raw.normalize('NFKC');
  const smuggled = ascii ? '' : decodeTagCharacters(compatible);
  const hasOverride = !ascii && compatible.includes(RIGHT_TO_LEFT_OVERRIDE);
  let text = ascii ? raw : compatible.replace(TAG_CHARS, ' ').replace(INVISIBLE, '');
  text = ascii ? text : foldConfusables(text);
  text = simplifyLatin(
    text.replace(CAPITALS_JOINED, (run) => run.replace(/[-_]/g, ' ')),
    ascii,
  );
  text = joinSpacedLetters(text, ascii);
  if (LEET_DIGIT.test(text)) text = undoLeet(text);
  text = collapseWhitespace(text);
  const reversed = hasOverride ? [...text].reverse().join('') : null;
  return { text, smuggled: collapseWhitespace(smuggled.toLowerCase()), reversed };
}

/**
 * The same text with only lowercasing, diacritics and whitespace handled. An instruction that the
 * full normalization finds but this view does not was deliberately obfuscated.
 */
export function plainView(raw: string): string {
  return collapseWhitespace(simplifyLatin(raw));
}

/** Only runs of whitespace and non-space whitespace are rewritten; single spaces stay as they are. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s{2,}|[^\S ]/g, ' ').trim();
}

function decodeTagCharacters(text: string): string {
  let out = '';
  for (const match of text.matchAll(TAG_CHARS)) {
    for (const char of match[0]) {
      const code = (char.codePointAt(0) ?? 0xe0000) - 0xe0000;
      if (code >= 0x20 && code < 0x7f) out += String.fromCharCode(code);
    }
    out += ' ';
  }
  return out;
}

/**
 * Maps look-alike letters to Latin inside words that mix scripts, and everywhere when the text is
 * mostly Latin. Genuine Russian or Greek text keeps its letters, so its own rules still match.
 */
function foldConfusables(text: string): string {
  if (!CONFUSABLE_CHAR.test(text)) return text;
  const latin = text.length - text.replace(/[a-z]/gi, '').length;
  const other = text.replace(/[^\p{L}]|[a-z]/giu, '').length;
  if (latin >= other) return text.replace(CONFUSABLE_CHARS, (char) => CONFUSABLES[char] ?? char);
  return text.replace(WORD, (word) =>
    LATIN_LETTER.test(word) && CONFUSABLE_CHAR.test(word)
      ? word.replace(CONFUSABLE_CHARS, (char) => CONFUSABLES[char] ?? char)
      : word,
  );
}

/** Lowercases, unifies quotes and strips diacritics from Latin letters only. */
function simplifyLatin(text: string, ascii = !NON_ASCII.test(text)): string {
  const lower = text.toLowerCase();
  if (ascii) return lower;
  return lower
    .replace(/[\u2018\u2019\u201B\u02BC\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .normalize('NFD')
    .replace(/([a-z])\p{M}+/gu, '$1')
    .normalize('NFC');
}

/** "i g n o r e" and "i.g.n.o.r.e" become "ignore"; "ignore-all-previous-instructions" is spaced. */
const SPACED_ASCII = /(?<![a-z0-9])(?:[a-z][ .\-_*]){2,}[a-z](?![a-z0-9])/g;
const SPACED_ANY = /(?<![\p{L}\p{N}])(?:\p{L}[ .\-_*]){2,}\p{L}(?![\p{L}\p{N}])/gu;

/** One-character tokens between separators: each alternative starts with a literal, so it is cheap. */
const SPACED_HINT = / [^ ] [^ ] [^ ](?: |$)|\.[^ .]\.[^ .]\.|-[^ -]-[^ -]-|_[^ _]_[^ _]_|\*[^ *]\*[^ *]\*/;
/** IGNORE-ALL-PREVIOUS-INSTRUCTIONS: capitals joined by hyphens or underscores read as words. */
const CAPITALS_JOINED = /\b[A-Z]{2,}(?:[-_][A-Z]{2,}){2,}\b/g;

function joinSpacedLetters(text: string, ascii: boolean): string {
  const joined = !SPACED_HINT.test(text)
    ? text
    : text.replace(ascii ? SPACED_ASCII : SPACED_ANY, (run) => run.replace(/[ .\-_*]/g, ''));
  return joined;
}

function isLeetWordChar(code: number): boolean {
  // a-z, 0-9, ! $ @
  return (
    (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 33 || code === 36 || code === 64
  );
}

/** Replaces each word that reads as a target once its leet characters are mapped back to letters. */
function undoLeet(text: string): string {
  let out = '';
  let copied = 0;
  LEET_MARK.lastIndex = 0;
  for (let mark = LEET_MARK.exec(text); mark !== null; mark = LEET_MARK.exec(text)) {
    let start = mark.index;
    let end = mark.index + 1;
    while (start > 0 && isLeetWordChar(text.charCodeAt(start - 1))) start -= 1;
    while (end < text.length && isLeetWordChar(text.charCodeAt(end))) end += 1;
    LEET_MARK.lastIndex = end;
    let plain = '';
    for (const char of text.slice(start, end)) plain += LEET_CHAR[char] ?? char;
    const word = text.slice(start, end);
    if (!(LEET_TARGET_SET.has(plain) || (LEET_WORD.test(plain) && LEET_INSIDE.test(word))) || start < copied) continue;
    out += text.slice(copied, start) + plain;
    copied = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
