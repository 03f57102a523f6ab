import { readFileSync } from 'node:fs';
import { stem } from '../archivist/text.ts';

/**
 * Words that two words of a query define together: "young cats" asks for a kitten, WordNet's
 * "young domestic cat"; "become part of a group", for join. From the first clause of the
 * definitions of common words' most frequent senses (scripts/build-wordnet-synonyms.ts), by stem.
 * One defining word alone is too loose (skin is in the definitions of apple and bruise alike).
 */
const definitions = JSON.parse(
  readFileSync(new URL('./wordnet-definitions.json', import.meta.url), 'utf8'),
) as Record<string, string[]>;

const definers = ((): Map<string, string[]> => {
  const index = new Map<string, string[]>();
  for (const [word, stems] of Object.entries(definitions)) for (const key of stems) index.set(key, [...(index.get(key) ?? []), word]);
  return index;
})();

/** Whether the word is one of the 15,000 common English words the table defines (roll, sign, plug). */
export function isDefinedWord(word: string): boolean {
  return Object.hasOwn(definitions, word);
}

/** Per query word, the words whose definition holds it and another word of the query. */
export function definedByQuery(words: readonly string[]): Map<string, string[]> {
  const stems = new Map(words.map((word) => [word, stem(word)]));
  const definingStems = new Map<string, Set<string>>();
  for (const key of new Set(stems.values()))
    for (const defined of definers.get(key) ?? []) definingStems.set(defined, (definingStems.get(defined) ?? new Set()).add(key));
  const result = new Map<string, string[]>();
  for (const [word, key] of stems) {
    const found = [...definingStems].filter(([, keys]) => keys.size >= 2 && keys.has(key)).map(([defined]) => defined);
    if (found.length > 0) result.set(word, found);
  }
  return result;
}
