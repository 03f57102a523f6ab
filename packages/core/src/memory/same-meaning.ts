import { readFileSync } from 'node:fs';
import { stem } from '../archivist/text.ts';
import { aliasGroups, relatedGroups } from '../archivist/synonyms.ts';

/**
 * Terms of the same meaning as a query word, from the domain synonym table: the other names of
 * the thing it names (db → database) and the words people use for the same topic (deploy →
 * release, rollout). Looked up by stem, so that deployments finds the group of deploy.
 */
const byStem = ((): Map<string, string[]> => {
  const index = new Map<string, Set<string>>();
  for (const group of [...aliasGroups, ...relatedGroups]) {
    for (const word of group) {
      const key = stem(word);
      const found = index.get(key) ?? new Set<string>();
      for (const other of group) if (stem(other) !== key) found.add(other);
      index.set(key, found);
    }
  }
  return new Map([...index].map(([key, words]) => [key, [...words]]));
})();

/**
 * WordNet synonyms (scripts/build-wordnet-synonyms.ts): the other words of a common word's most
 * frequent senses, by stem. 8,000 words in 280 kB, read once when the module loads.
 */
const wordnetByStem = ((): Map<string, string[]> => {
  const table = JSON.parse(readFileSync(new URL('./wordnet-synonyms.json', import.meta.url), 'utf8')) as Record<
    string,
    string[]
  >;
  const index = new Map<string, string[]>();
  for (const [lemma, synonyms] of Object.entries(table)) {
    const key = stem(lemma);
    index.set(key, [...new Set([...(index.get(key) ?? []), ...synonyms])]);
  }
  return index;
})();

export function sameMeaning(word: string): string[] {
  const key = stem(word);
  return [...new Set([...(byStem.get(key) ?? []), ...(wordnetByStem.get(key) ?? [])])];
}
