import { stemmer } from 'stemmer';
import { isStopword } from './stopwords.ts';

const nonWord = /[^\p{L}\p{N}]+/u;
const hasLetter = /\p{L}/u;
const hasDigit = /\p{N}/u;
const asciiLetters = /^[a-z]+$/;

/** Lowercase words: split on anything that is not a letter or a digit, in any script. */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const part of text.normalize('NFKC').toLowerCase().split(nonWord)) {
    if (part !== '') words.push(part);
  }
  return words;
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

/** Stemmed content terms of a text, in order, with repeats. */
export function terms(text: string): string[] {
  const result: string[] = [];
  for (const word of tokenize(text)) {
    if (isContentWord(word)) result.push(stem(word));
  }
  return result;
}

/** The parts of a fact_key such as `deploy-staging.host` → deploy, staging, host. */
export function factKeyWords(factKey: string | null): string[] {
  if (factKey === null) return [];
  return tokenize(factKey).filter(isContentWord);
}
