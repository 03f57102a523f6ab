import { readFileSync } from 'node:fs';

/**
 * The common English single words: those WordNet found in its sense-tagged corpus
 * (scripts/build-wordnet-synonyms.ts), 16,700 words in 180 kB, read once when the module loads.
 */
const commonWords = new Set(
  JSON.parse(readFileSync(new URL('./wordnet-common-words.json', import.meta.url), 'utf8')) as string[],
);

/** Whether the word is a common English word (roll, sign, plug; not decisi or mainta). */
export function isCommonWord(word: string): boolean {
  return commonWords.has(word);
}
