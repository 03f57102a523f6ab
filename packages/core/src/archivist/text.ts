import { stemmer } from 'stemmer';
import { isStopword } from './stopwords.ts';

const wordPattern = /[\p{L}\p{N}]+/gu;
const hasLetter = /\p{L}/u;
const hasDigit = /\p{N}/u;
const asciiLetters = /^[a-z]+$/;
const nonAscii = /[^\p{ASCII}]/u;

/** Lowercase words: split on anything that is not a letter or a digit, in any script. */
export function tokenize(text: string): string[] {
  const normalized = nonAscii.test(text) ? text.normalize('NFKC') : text;
  return normalized.toLowerCase().match(wordPattern) ?? [];
}

const stemCache = new Map<string, string>();
const stemCacheLimit = 50_000;

/**
 * Porter stem of one lowercase word, so that deploy, deploys, deployed, deploying and deployment
 * share one stem. Porter turns a final "y" into "i" (deploy → deploi) but drops "-ment" first
 * (deployment → deploy); the "i" is turned back into the "y" the word had, which keeps the family
 * together. Words with digits, short words and non-Latin words are kept as they are.
 */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  let result = word;
  if (word.length > 3 && asciiLetters.test(word)) {
    result = stemmer(word);
    if (result.endsWith('i')) {
      const base = result.slice(0, -1);
      if (word.startsWith(`${base}y`) || word.startsWith(`${base}ie`)) result = `${base}y`;
    }
  }
  if (stemCache.size >= stemCacheLimit) stemCache.clear();
  stemCache.set(word, result);
  return result;
}

/**
 * Whether a token says something about the topic: not a stopword, not a lone letter, and not a
 * short bare number (the "16" and "2" of "16.2" say little; "5432" or "412" do).
 */
export function isContentWord(word: string): boolean {
  if (isStopword(word)) return false;
  if (hasLetter.test(word)) return word.length > 1;
  return hasDigit.test(word) && word.length >= 3;
}

const termCache = new Map<string, string | null>();

/** The stem of a content word, or null for a stopword or a token that says nothing. Cached. */
export function contentTerm(word: string): string | null {
  let term = termCache.get(word);
  if (term === undefined) {
    term = isContentWord(word) ? stem(word) : null;
    if (termCache.size >= stemCacheLimit) termCache.clear();
    termCache.set(word, term);
  }
  return term;
}

/** Stemmed content terms of a text, in order, with repeats. */
export function terms(text: string): string[] {
  const result: string[] = [];
  for (const word of tokenize(text)) {
    const term = contentTerm(word);
    if (term !== null) result.push(term);
  }
  return result;
}

/** The parts of a fact_key such as `deploy-staging.host` → deploy, staging, host. */
export function factKeyWords(factKey: string | null): string[] {
  if (factKey === null) return [];
  return tokenize(factKey).filter(isContentWord);
}
