/**
 * Decodes the obvious encodings an instruction can hide behind (base64, hex, percent-encoding,
 * HTML entities, \u escapes, rot13) so the decoded text can be judged like any other. Only results
 * that read as text are kept: hashes, images and keys decode to binary and are dropped.
 */

/** Base64 and hex runs are found in one pass (see longRuns), not by a `{16,}` pattern tried at every position. */
const MIN_RUN = 16;
const HEX = /^[0-9a-fA-F]+$/;
const MIXED_CASE = /[A-Z][^A-Z]*[a-z]|[a-z][^a-z]*[A-Z]/;
const HEX_ESCAPES = /(?:\\x[0-9a-fA-F]{2}){6,}/g;
const PERCENT_RUN = /(?:%[0-9a-fA-F]{2}){4,}/g;
const HTML_ENTITY_RUN = /(?:&#(?:x[0-9a-fA-F]+|\d+);){4,}/g;
const UNICODE_ESCAPE_RUN = /(?:\\u[0-9a-fA-F]{4}){4,}/g;
const COMMON_ENGLISH = /\b(?:the|and|to|of|is|in|you|your|for|on|with|this|that|it|are|be|use|run)\b/i;
const ROT13_HINT = /\b(?:rot-?13|caesar)\b/i;

/** At most this many runs per encoding are decoded, so a hostile record cannot make us spin. */
const MAX_RUNS = 32;

export function decodePayloads(text: string): string[] {
  const decoded: string[] = [];
  for (const run of longRuns(text)) {
    if (HEX.test(run)) {
      if (run.length % 2 === 0) keep(decoded, bytesToText(Buffer.from(run, 'hex')));
    } else if (MIXED_CASE.test(run)) {
      // Base64 of text always mixes cases; lowercase paths and identifiers are not worth decoding.
      keep(decoded, decodeBase64(run));
    }
  }
  if (text.includes('\\x')) {
    for (const run of runs(text, HEX_ESCAPES))
      keep(decoded, bytesToText(Buffer.from(run.replace(/\\x/g, ''), 'hex')));
  }
  if (text.includes('%')) for (const run of runs(text, PERCENT_RUN)) keep(decoded, safeDecodeUri(run));
  if (text.includes('&#')) for (const run of runs(text, HTML_ENTITY_RUN)) keep(decoded, decodeEntities(run));
  if (text.includes('\\u'))
    for (const run of runs(text, UNICODE_ESCAPE_RUN)) keep(decoded, decodeUnicodeEscapes(run));
  if (ROT13_HINT.test(text) || looksLikeCipherText(text)) keep(decoded, rot13(text));
  return decoded;
}

/** Whether a UTF-16 code unit is a base64 / base64url character (A-Z a-z 0-9 + / - _). */
function isBase64Char(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 45 ||
    code === 95
  );
}

/** Runs of at least MIN_RUN base64 characters, found in one pass over the text. */
function longRuns(text: string): string[] {
  const found: string[] = [];
  let start = 0;
  for (let i = 0; i <= text.length; i += 1) {
    if (i < text.length && isBase64Char(text.charCodeAt(i))) continue;
    if (i - start >= MIN_RUN) {
      found.push(text.slice(start, i));
      if (found.length >= MAX_RUNS) break;
    }
    start = i + 1;
  }
  return found;
}

function runs(text: string, pattern: RegExp): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(pattern)) {
    found.push(match[0]);
    if (found.length >= MAX_RUNS) break;
  }
  return found;
}

function keep(decoded: string[], text: string | null): void {
  if (text !== null) decoded.push(text);
}

function decodeBase64(run: string): string | null {
  const standard = run.replace(/-/g, '+').replace(/_/g, '/');
  let end = standard.length;
  while (end > 0 && standard[end - 1] === '=') end -= 1;
  const unpadded = standard.slice(0, end);
  if (unpadded.length % 4 === 1) return null;
  const text = bytesToText(Buffer.from(unpadded, 'base64'));
  // A decoded instruction has words; a short identifier that happens to be valid base64 does not.
  return text !== null && hasTwoWords(text) ? text : null;
}

/** Two runs of at least two Latin letters with one space between them; one pass over the text. */
function hasTwoWords(text: string): boolean {
  let previousEnd = -2;
  for (const run of text.matchAll(LETTER_RUN)) {
    if (run.index === previousEnd + 1 && text[previousEnd] === ' ' && run[0].length >= 2) return true;
    previousEnd = run[0].length >= 2 ? run.index + run[0].length : -2;
  }
  return false;
}
const LETTER_RUN = /[a-z]+/gi;

/** Returns the bytes as UTF-8 text when they are mostly printable, otherwise null. */
const UNPRINTABLE = /[^\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t]/gu;

function bytesToText(bytes: Buffer): string | null {
  if (bytes.length < 6) return null;
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD')) return null;
  const unprintable = text.length - text.replace(UNPRINTABLE, '').length;
  return unprintable <= text.length * 0.05 ? text : null;
}

function safeDecodeUri(run: string): string | null {
  try {
    return decodeURIComponent(run);
  } catch {
    return null;
  }
}

function decodeEntities(run: string): string {
  return run.replace(/&#(x[0-9a-fA-F]+|\d+);/g, (_entity, code: string) =>
    String.fromCodePoint(code.startsWith('x') ? parseInt(code.slice(1), 16) : parseInt(code, 10)),
  );
}

function decodeUnicodeEscapes(run: string): string {
  return run.replace(/\\u([0-9a-fA-F]{4})/g, (_escape, code: string) =>
    String.fromCharCode(parseInt(code, 16)),
  );
}

/** Several Latin words and not one common English word: worth a rot13 look. */
function looksLikeCipherText(text: string): boolean {
  if (COMMON_ENGLISH.test(text)) return false;
  const latinWords = text.match(/\b[a-z]{3,}\b/gi);
  return latinWords !== null && latinWords.length >= 4;
}

function rot13(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 65 && code <= 90) codes[i] = ((code - 52) % 26) + 65;
    else if (code >= 97 && code <= 122) codes[i] = ((code - 84) % 26) + 97;
    else codes[i] = code;
  }
  return new TextDecoder('utf-16le').decode(codes);
}
