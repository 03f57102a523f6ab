import { sql } from 'drizzle-orm';
import type { Db } from '@mmw/db';
import { isContentWord } from '../archivist/text.ts';
import { isCommonWord } from './common-words.ts';
import { irregularForms } from './irregular-forms.ts';
import { sameMeaning } from './same-meaning.ts';

/**
 * When a query word matches a record (docs/decisions/0023-what-a-query-word-matches.md): a word of
 * the record starts with it, or has its English Snowball stem, or is an irregular form of it (went,
 * go), or is a term of the same meaning (or that term's stem); a closed compound also matches its
 * two words written apart (rollback, roll back). The record side holds both its words
 * and their stems (records.tsv), so each query word becomes one tsquery, an OR of those
 * alternatives, and still counts once.
 */
export interface QueryTerm {
  /** The query word as written. */
  word: string;
  /** What matches it, as a tsquery over the simple configuration (letters and digits only). */
  tsquery: string;
}

/** Second halves of closed compounds that people also write as two words: rollback and roll back. */
const PARTICLES = ['back', 'up', 'out', 'off', 'down', 'over', 'in', 'on'] as const;

/**
 * The two words a closed compound is also written as (rollbacks → roll back, setup → set up,
 * signoff → sign off), as a tsquery that holds both, or null. The record's words keep no positions,
 * so the two need only both be there. The first half must be a common English word: decision is not
 * "decisi on", and such a pair would make the word index read every record that holds "on".
 */
function apartCompound(word: string): string | null {
  const singular = word.endsWith('s') ? word.slice(0, -1) : word;
  for (const particle of PARTICLES) {
    const head = singular.slice(0, -particle.length);
    if (
      singular.endsWith(particle) &&
      head.length >= 3 &&
      /^[a-z]+$/.test(head) &&
      isContentWord(head) &&
      isCommonWord(head)
    )
      return `(${head} & ${particle})`;
  }
  return null;
}

/**
 * The Snowball stems of the words, from PostgreSQL's own `english_stem` dictionary so that they
 * are exactly the stems of records.tsv; a stopword has none.
 */
async function englishStems(tx: Db, words: readonly string[]): Promise<Map<string, string | null>> {
  if (words.length === 0) return new Map();
  const rows = await tx
    .select({
      word: sql<string>`w`,
      stem: sql<string | null>`(ts_lexize('english_stem', w))[1]`,
    })
    .from(sql`unnest(${sql.param([...words])}::text[]) as w`);
  return new Map(rows.map((row) => [row.word, row.stem]));
}

/** Only letters: the English configuration stems such a word (a word with digits is kept as written). */
const LETTERS = /^\p{L}+$/u;

/**
 * Whether an exact alternative finds no record that the others do not: one the word's own prefix
 * covers (talky under talk:*), or a word of letters whose English stem is also there, since a
 * record holds the stem of each of its words (decision under decis). Each alternative is read for
 * every row a search scores, so the tsquery holds only those that can find something more.
 */
function matchedAnyway(
  term: string,
  word: string,
  alternatives: ReadonlySet<string>,
  stems: ReadonlyMap<string, string | null>,
): boolean {
  if (term === `${word}:*` || term.startsWith('(')) return false;
  if (term.startsWith(word)) return true;
  const stem = stems.get(term);
  return stem !== undefined && stem !== null && stem !== term && alternatives.has(stem) && LETTERS.test(term);
}

/**
 * The query's words as terms: stopwords left out (unless the query has nothing else), one word
 * per lemma (deploy and deployed, go and went are one word), each with its forms and its terms of
 * the same meaning.
 */
export async function queryTerms(
  tx: Db,
  words: readonly string[],
  /** Terms the expanded pass adds: one that an earlier word already matches is not a word again. */
  added: readonly string[] = [],
): Promise<QueryTerm[]> {
  const all = [...words, ...added];
  const forms = new Map(all.map((word) => [word, irregularForms(word)]));
  // A term of the same meaning counts in any of its forms: purchase finds bought, through buy.
  const meanings = new Map(
    all.map((word) => [word, [...new Set(sameMeaning(word).flatMap((term) => [term, ...irregularForms(term)]))]]),
  );
  const related = [...forms.values(), ...meanings.values()].flat();
  const stems = await englishStems(tx, [...new Set([...all, ...related])]);
  const content = all.filter((word) => stems.get(word));
  if (content.length === 0) return all.map((word) => ({ word, tsquery: `${word}:*` }));
  const stemOf = (word: string) => stems.get(word) ?? word;
  const seen = new Set<string>();
  const covered = new Set<string>();
  const terms: QueryTerm[] = [];
  for (const word of content) {
    const stem = stemOf(word);
    if (seen.has(stem) || (added.includes(word) && covered.has(stem))) continue;
    const others = [...(forms.get(word) ?? []), ...(meanings.get(word) ?? [])];
    seen.add(stem);
    for (const form of forms.get(word) ?? []) seen.add(stemOf(form));
    for (const other of others) covered.add(stemOf(other));
    const alternatives = new Set([`${word}:*`, stem]);
    for (const other of others) {
      const otherStem = stems.get(other);
      if (!otherStem) continue; // a stopword means nothing on its own
      alternatives.add(other).add(otherStem);
    }
    for (const written of [word, ...others]) {
      const apart = apartCompound(written);
      if (apart !== null) alternatives.add(apart);
    }
    terms.push({
      word,
      tsquery: [...alternatives]
        .filter((term) => !matchedAnyway(term, word, alternatives, stems))
        .join(' | '),
    });
  }
  return terms;
}
