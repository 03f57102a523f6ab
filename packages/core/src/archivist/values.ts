import { stem, terms as contentTerms, tokenize } from './text.ts';
import { isStopword } from './stopwords.ts';
import { canonicalAlias } from './synonyms.ts';

/**
 * The concrete values a record asserts: numbers keyed by what they measure, and names or
 * identifiers (hosts, paths, tools, people, products), each with the word it follows. Two records
 * on one topic contradict each other when each asserts a value of the same kind the other lacks.
 */
export interface ValueProfile {
  /** unit → normalized numbers, e.g. "request" → {"100"}, "time" → {"09:30"}, "gb" → {"2"}. */
  numbers: Map<string, Set<string>>;
  /** Lowercased value → the stem of the content word before it ("sent through SendGrid" → "sent"). */
  terms: Map<string, string>;
  /** Stems of every word of the text. */
  stems: Set<string>;
  /** Stemmed content words outside the values: what the record talks about. */
  plainTerms: Set<string>;
}

const issueRefPattern = /#\d+|\b[A-Z][A-Z0-9]{1,9}-\d+\b/g;
/** A URL: found at its `://`, whose scheme is read backwards; one pass (see findUrls). */
const SCHEME_CHAR = /[a-z0-9+.-]/i;
const URL_CHAR = /[^\s<>"'`)\]]/;
const URL_TRAILING = '.,;:!?';
const pathPattern = /(?<=^|\s)[~.]?\/[\p{L}\p{N}._\-/]+/gu;
/** Starts only where a run of letters and digits starts, so each run is read once. */
const identifierPattern = /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:[._\-/:@=][\p{L}\p{N}]+)+/gu;
/** Capitalized, camelCase or ALLCAPS words, and words with digits such as k8s, p95, argon2id. */
const namePattern =
  /(?<![\p{L}\p{N}])(?:\p{Lu}[\p{L}\p{N}]*|\p{Ll}+\p{Lu}[\p{L}\p{N}]*|\p{L}+\p{N}[\p{L}\p{N}]*)(?![\p{L}\p{N}])/gu;
const datePattern = /\b\d{4}-\d{2}-\d{2}\b/g;
const timePattern = /\b\d{1,2}:\d{2}\b/g;
const hasLetter = /\p{L}/u;
const clauseBreak = /[;,.!?()]\s|[;!?()]/;
/** Words that sit between a slot and its value without naming the slot ("is now Vitest"). */
const fillers = new Set(['now', 'still', 'currently', 'always', 'also', 'again', 'actually']);

const numberWords: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  eleven: '11',
  twelve: '12',
};

export function valueProfile(text: string): ValueProfile {
  const numbers = new Map<string, Set<string>>();
  const terms = new Map<string, string>();
  const addNumber = (unit: string, value: string): void => {
    const set = numbers.get(unit) ?? new Set<string>();
    set.add(value);
    numbers.set(unit, set);
  };
  const addTerm = (value: string, index: number): void => {
    if (!terms.has(value)) terms.set(value, anchorBefore(text, index));
  };
  // Blank out what was read, keeping offsets, so each part of the text is read once.
  const blank = (found: string): string => ' '.repeat(found.length);

  let rest = text.replace(issueRefPattern, blank);
  let unread = '';
  let cursor = 0;
  for (const url of findUrls(rest)) {
    addTerm(rest.slice(url.start, url.end).toLowerCase(), url.start);
    unread += rest.slice(cursor, url.start) + ' '.repeat(url.end - url.start);
    cursor = url.end;
  }
  rest = unread + rest.slice(cursor);
  for (const match of rest.matchAll(pathPattern)) addTerm(match[0].toLowerCase(), match.index);
  rest = rest.replace(pathPattern, blank);
  for (const match of rest.matchAll(identifierPattern)) {
    if (hasLetter.test(match[0])) addTerm(match[0].toLowerCase(), match.index);
  }
  rest = rest.replace(identifierPattern, (found) => (hasLetter.test(found) ? blank(found) : found));
  let numberText = rest;
  rest = rest.replace(namePattern, (word: string, index: number) => {
    const lower = word.toLowerCase();
    // "Staging is…" says nothing about a name; "PostgreSQL", "EKS" or "k8s" still do.
    const plainCapital = /^\p{Lu}\p{Ll}*$/u.test(word);
    if (isStopword(lower) || (plainCapital && startsSentence(text, index))) return word;
    addTerm(canonicalAlias(lower), index);
    return blank(word);
  });
  for (const match of numberText.matchAll(datePattern)) addNumber('date', match[0]);
  numberText = numberText.replace(datePattern, blank);
  for (const match of numberText.matchAll(timePattern)) addNumber('time', match[0].padStart(5, '0'));
  numberText = numberText.replace(timePattern, blank);
  for (const clause of numberText.split(clauseBreak)) collectNumbers(clause, addNumber);

  return {
    numbers,
    terms,
    stems: new Set(tokenize(text).map(stem)),
    plainTerms: new Set(contentTerms(rest)),
  };
}

/** The stem of the last content word before `index` in the same clause. */
function anchorBefore(text: string, index: number): string {
  const clause = text.slice(0, index).split(clauseBreak).pop() ?? '';
  const words = tokenize(clause);
  for (let at = words.length - 1; at >= 0; at -= 1) {
    const word = words[at] ?? '';
    if (!isStopword(word) && !fillers.has(word)) return stem(word);
  }
  return '';
}

function collectNumbers(clause: string, add: (unit: string, value: string) => void): void {
  const words = clause.split(/\s+/).filter((word) => word !== '');
  words.forEach((raw, index) => {
    const word = trimToWord(raw);
    const spelled = numberWords[word.toLowerCase()];
    const match = spelled === undefined ? /^(\d+(?:[.,]\d+)*)([a-z%]+)?$/i.exec(word) : null;
    if (spelled === undefined && match === null) return;
    const value = spelled ?? match?.[1] ?? '';
    const suffix = match?.[2]?.toLowerCase();
    if (suffix !== undefined) return add(suffix, value);
    if (/^\d+\.\d+/.test(value)) return add('dotted', value);
    const previous = words[index - 1] ?? '';
    if (/^\p{Lu}/u.test(previous)) return add(stem(previous.toLowerCase()), value);
    add(unitNear(words, index), value);
  });
}

/** What a bare number measures: the next content word in its clause, else the previous one. */
function unitNear(words: string[], index: number): string {
  for (const step of [1, -1]) {
    for (let at = index + step; at >= 0 && at < words.length; at += step) {
      const token = tokenize(words[at] ?? '')[0];
      if (token === undefined || isStopword(token) || numberWords[token] !== undefined) continue;
      if (/^\d/.test(token)) break;
      return stem(token);
    }
  }
  return '';
}

/** URLs, each found at its `://`: the scheme read backwards, the rest forwards, trailing punctuation left out. */
function findUrls(text: string): Array<{ start: number; end: number }> {
  const urls: Array<{ start: number; end: number }> = [];
  let from = 0;
  for (let at = text.indexOf('://', from); at >= 0; at = text.indexOf('://', from)) {
    let start = at;
    while (start > 0 && SCHEME_CHAR.test(text[start - 1] ?? '')) start -= 1;
    while (start < at && !/[a-z]/i.test(text[start] ?? '')) start += 1;
    let end = at + 3;
    while (end < text.length && URL_CHAR.test(text[end] ?? '')) end += 1;
    while (end > at + 3 && URL_TRAILING.includes(text[end - 1] ?? '')) end -= 1;
    const wordStart = start === 0 || !/\w/.test(text[start - 1] ?? '');
    if (start < at && end > at + 3 && wordStart) urls.push({ start, end });
    from = Math.max(end, at + 3);
  }
  return urls;
}

/** Whether `index` starts a sentence: the text start, after `.!?:;` and whitespace, or after a line break. */
function startsSentence(text: string, index: number): boolean {
  if (index === 0) return true;
  let at = index;
  while (at > 0 && /\s/.test(text[at - 1] ?? '')) {
    if (text[at - 1] === '\n') return true;
    at -= 1;
  }
  return at < index && at > 0 && '.!?:;'.includes(text[at - 1] ?? '');
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A word without the punctuation around it (a trailing % is kept). */
function trimToWord(raw: string): string {
  const chars = [...raw];
  let start = 0;
  let end = chars.length;
  while (start < end && !LETTER_OR_DIGIT.test(chars[start] ?? '')) start += 1;
  while (end > start && !LETTER_OR_DIGIT.test(chars[end - 1] ?? '') && chars[end - 1] !== '%') end -= 1;
  return chars.slice(start, end).join('');
}
