import { stem, tokenize } from './text.ts';
import { isStopword } from './stopwords.ts';

/**
 * The concrete values a record asserts: numbers keyed by what they measure, and names or
 * identifiers (hosts, paths, versions of tools, people, products). Two records on one topic
 * contradict each other when each asserts a value of the same kind that the other lacks.
 */
export interface ValueProfile {
  /** unit → normalized numbers, e.g. "request" → {"100"}, "time" → {"9:30"}, "gb" → {"2"}. */
  numbers: Map<string, Set<string>>;
  /** Lowercased names and identifiers: "sendgrid", "db-primary-1.internal", "/api/stripe/webhook". */
  terms: Set<string>;
  /** Stems of every word, to tell a value that merely moved around from one that is new. */
  stems: Set<string>;
}

const identifierPattern = /[\p{L}\p{N}][\p{L}\p{N}]*(?:[._\-/:@=][\p{L}\p{N}]+)+/gu;
const pathPattern = /(?:^|\s)[~.]?\/[\p{L}\p{N}._\-/]+/gu;
/** Capitalized or camelCase words, and words with digits such as k8s, p95, argon2id. */
const namePattern =
  /(?<![\p{L}\p{N}])(?:\p{Lu}[\p{L}\p{N}]*|\p{Ll}+\p{Lu}[\p{L}\p{N}]*|\p{L}+\p{N}[\p{L}\p{N}]*)(?![\p{L}\p{N}])/gu;
const issueRefPattern = /#\d+|\b[A-Z][A-Z0-9]{1,9}-\d+\b/g;
const datePattern = /\b\d{4}-\d{2}-\d{2}\b/g;
const timePattern = /\b\d{1,2}:\d{2}\b/g;
const hasLetter = /\p{L}/u;
const clauseBreak = /[;,.!?()]\s|[;!?()]/;

const numberWords: Record<string, string> = {
  one: '1', two: '2', three: '3', four: '4', five: '5', six: '6',
  seven: '7', eight: '8', nine: '9', ten: '10', eleven: '11', twelve: '12',
};

export function valueProfile(text: string): ValueProfile {
  const numbers = new Map<string, Set<string>>();
  const terms = new Set<string>();
  const addNumber = (unit: string, value: string): void => {
    const set = numbers.get(unit) ?? new Set<string>();
    set.add(value);
    numbers.set(unit, set);
  };

  // Issue references are about which problem, not what is true; they are handled elsewhere.
  let rest = text.replace(issueRefPattern, ' ');
  for (const match of rest.matchAll(pathPattern)) terms.add(match[0].trim().toLowerCase());
  rest = rest.replace(pathPattern, ' ');
  for (const match of rest.matchAll(identifierPattern)) {
    if (hasLetter.test(match[0])) terms.add(match[0].toLowerCase());
  }
  rest = rest.replace(identifierPattern, (found) => (hasLetter.test(found) ? ' ' : found));
  for (const match of rest.matchAll(namePattern)) {
    const lower = match[0].toLowerCase();
    if (!isStopword(lower)) terms.add(lower);
  }
  for (const match of rest.matchAll(datePattern)) addNumber('date', match[0]);
  rest = rest.replace(datePattern, ' ');
  for (const match of rest.matchAll(timePattern)) addNumber('time', match[0].padStart(5, '0'));
  rest = rest.replace(timePattern, ' ');

  for (const clause of rest.split(clauseBreak)) collectNumbers(clause, addNumber);
  return { numbers, terms, stems: new Set(tokenize(text).map(stem)) };
}

function collectNumbers(clause: string, add: (unit: string, value: string) => void): void {
  const words = clause.split(/\s+/).filter((word) => word !== '');
  words.forEach((raw, index) => {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}%]+$/gu, '');
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
