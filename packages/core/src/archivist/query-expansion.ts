import { genericWords } from './abstract-query.ts';
import { ExpansionList } from './expansion-list.ts';
import { boilerplateStems } from './stopwords.ts';
import { aliasGroups, synonymGroups } from './synonyms.ts';
import { isContentWord, stem, tokenize } from './text.ts';
import { buildVocabularyIndex, recordsWith, surfacesOf, type VocabularyIndex } from './vocabulary-index.ts';

export interface ExpansionContext {
  /** Recent records of the workspace. */
  vocabulary: Array<{ content: string; factKey: string | null }>;
}

export interface QueryExpander {
  /** Added terms only: lowercase single words, at most 12, never the query's own words. */
  expand(words: string[], ctx: ExpansionContext): Promise<string[]>;
}

const coOccurringPerWord = 3;
const salientForAbstract = 12;

/**
 * stem → the words of the synonym table that mean the same or a related thing: its aliases first
 * (db → database, dbs), then the related words of the word and of its aliases (db → postgres, pg).
 */
const synonymsByStem = ((): Map<string, string[]> => {
  const index = new Map<string, Set<string>>();
  for (const group of [...aliasGroups, ...synonymGroups]) {
    for (const word of group) {
      const aliases = aliasGroups.filter((aliasGroup) => aliasGroup.includes(word)).flat();
      const related = synonymGroups
        .filter((other) => other.some((member) => aliases.includes(member)))
        .flat();
      const key = stem(word);
      const found = index.get(key) ?? new Set<string>();
      for (const other of [...aliases, ...group, ...related]) if (stem(other) !== key) found.add(other);
      index.set(key, found);
    }
  }
  return new Map([...index].map(([key, words]) => [key, [...words]]));
})();

/**
 * Expansion without a model: forms of the query words that occur in the workspace (deploy →
 * deployed, deployment), synonyms from a small domain table, and the words and fact_key parts
 * that co-occur with the query words in the workspace's records. An abstract query gets the
 * workspace's main topics instead.
 */
export function createBuiltInExpander(): QueryExpander {
  return { expand: (words, ctx) => Promise.resolve(expandWithVocabulary(words, ctx)) };
}

export function expandWithVocabulary(words: string[], ctx: ExpansionContext): string[] {
  const query = [...new Set(words.flatMap((word) => tokenize(word)))];
  const index = buildVocabularyIndex(ctx.vocabulary);
  const specific = query.filter((word) => isContentWord(word) && !genericWords.has(word));
  const queryStems = new Set(specific.map(stem));
  const table = [...queryStems].flatMap((key) => synonymsByStem.get(key) ?? []);
  const known = table.filter((word) => index.documentFrequency.has(stem(word)));
  const related = [...queryStems].flatMap((key) => coOccurring(index, key, queryStems));
  // An abstract query ("what is the setup") names no topic: offer the workspace's own.
  const salient = specific.length === 0 ? salientStems(index) : [];
  const surfaces = surfacesOf(index, new Set([...queryStems, ...related, ...salient]));

  const result = new ExpansionList(query);
  for (const key of queryStems) for (const form of surfaces.get(key) ?? []) result.add(form);
  for (const word of known) result.add(word);
  for (const key of related) result.add(surfaces.get(key)?.[0] ?? key);
  for (const word of table) result.add(word);
  for (const key of salient) result.add(surfaces.get(key)?.[0] ?? key);
  return result.terms();
}

/** Stems found in the same records as `key`, scored by how often and how specifically. */
function coOccurring(index: VocabularyIndex, key: string, query: ReadonlySet<string>): string[] {
  const records = recordsWith(index, key);
  if (records.length === 0) return [];
  const counts = new Map<string, number>();
  for (const at of records) {
    for (const other of new Set(index.records[at]?.stems)) {
      if (!query.has(other) && !boilerplateStems.has(other)) counts.set(other, (counts.get(other) ?? 0) + 1);
    }
  }
  const minimum = Math.min(2, records.length);
  const total = index.records.length;
  const scored: Array<[string, number]> = [];
  for (const [other, count] of counts) {
    if (count < minimum) continue;
    const spread = index.documentFrequency.get(other) ?? 1;
    const keyBonus = index.factKeyStems.has(other) ? 1.5 : 1;
    scored.push([other, (count / records.length) * Math.log(1 + total / spread) * keyBonus]);
  }
  return byScore(scored).slice(0, coOccurringPerWord);
}

/** The workspace's topics: fact_key parts first, then the stems most records share. */
function salientStems(index: VocabularyIndex): string[] {
  const keys = byScore([...index.factKeyStems]);
  const common = byScore([...index.documentFrequency].filter(([, count]) => count > 1));
  return [...new Set([...keys, ...common])]
    .filter((key) => !boilerplateStems.has(key))
    .slice(0, salientForAbstract);
}

function byScore(entries: Array<[string, number]>): string[] {
  return entries.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([key]) => key);
}

export { isAbstractQuery } from './abstract-query.ts';
