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

export function sameMeaning(word: string): string[] {
  return byStem.get(stem(word)) ?? [];
}
