import { readFileSync } from 'node:fs';
import { stem } from '../archivist/text.ts';

/**
 * Irregular forms of a word (go, goes, gone, went; child, children; buy, bought), from WordNet's
 * exception lists (scripts/build-wordnet-synonyms.ts): the forms English Snowball stemming cannot
 * join, since they share no stem. 1,200 base forms in 76 kB, read once when the module loads.
 */
const table = JSON.parse(readFileSync(new URL('./wordnet-irregular-forms.json', import.meta.url), 'utf8')) as {
  /** Per base form, its irregular inflections. */
  inflections: Record<string, string[]>;
  /** Per irregular inflection, its base forms. */
  bases: Record<string, string[]>;
};

const inflections = new Map(Object.entries(table.inflections));
const bases = new Map(Object.entries(table.bases));
/** Base forms by stem, so that a regular inflection (buying, leaves) finds its base's irregular ones. */
const basesByStem = ((): Map<string, string[]> => {
  const index = new Map<string, string[]>();
  for (const base of inflections.keys()) index.set(stem(base), [...(index.get(stem(base)) ?? []), base]);
  return index;
})();

/** The other forms of the word's lemmas that differ from it irregularly: went → go, gone, goes. */
export function irregularForms(word: string): string[] {
  const lemmas = new Set([...(bases.get(word) ?? []), ...(basesByStem.get(stem(word)) ?? [])]);
  if (inflections.has(word)) lemmas.add(word);
  const forms = new Set<string>();
  for (const lemma of lemmas) {
    forms.add(lemma);
    for (const form of inflections.get(lemma) ?? []) forms.add(form);
  }
  forms.delete(word);
  return [...forms];
}
