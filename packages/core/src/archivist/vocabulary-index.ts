import { contentTerm, tokenize } from './text.ts';

/**
 * The words of a workspace's recent records: each record's words and stems, how many records
 * have each stem, and which stems come from fact_keys. Built on every expansion, so it keeps to
 * one pass with flat arrays and reads at most the first 600 characters of a record. (Remembering
 * the words of each text made repeated searches faster but the tail slower: the garbage collector
 * then moves every cached text to the old generation.)
 */
export interface VocabularyIndex {
  records: ReadonlyArray<TextWords>;
  /** stem → number of records that contain it. */
  documentFrequency: Map<string, number>;
  /** stem → number of records that have it in their fact_key. */
  factKeyStems: Map<string, number>;
}

/** Content words of a text and their stems, position by position. */
export interface TextWords {
  words: readonly string[];
  stems: readonly string[];
}

/** A record's opening is enough to know its vocabulary; a long summary must not slow a search. */
const maxCharsPerRecord = 600;

function wordsOf(fullText: string): TextWords {
  const text = fullText.length > maxCharsPerRecord ? fullText.slice(0, maxCharsPerRecord) : fullText;
  const words: string[] = [];
  const stems: string[] = [];
  for (const word of tokenize(text)) {
    const term = contentTerm(word);
    if (term === null) continue;
    words.push(word);
    stems.push(term);
  }
  return { words, stems };
}

export function buildVocabularyIndex(
  vocabulary: ReadonlyArray<{ content: string; factKey: string | null }>,
): VocabularyIndex {
  const documentFrequency = new Map<string, number>();
  const factKeyStems = new Map<string, number>();
  const lastSeen = new Map<string, number>();
  const records: TextWords[] = [];
  const count = (map: Map<string, number>, key: string): void => {
    map.set(key, (map.get(key) ?? 0) + 1);
  };

  const countOnce = (stems: readonly string[], at: number): void => {
    for (const term of stems) {
      if (lastSeen.get(term) === at) continue;
      lastSeen.set(term, at);
      count(documentFrequency, term);
    }
  };
  vocabulary.forEach((entry, at) => {
    const content = wordsOf(entry.content);
    countOnce(content.stems, at);
    if (entry.factKey === null) {
      records.push(content);
      return;
    }
    const key = wordsOf(entry.factKey);
    countOnce(key.stems, at);
    for (const term of new Set(key.stems)) count(factKeyStems, term);
    records.push({ words: [...content.words, ...key.words], stems: [...content.stems, ...key.stems] });
  });
  return { records, documentFrequency, factKeyStems };
}

/** Indexes of the records that contain a stem. */
export function recordsWith(index: VocabularyIndex, term: string): number[] {
  const found: number[] = [];
  index.records.forEach((record, at) => {
    if (record.stems.includes(term)) found.push(at);
  });
  return found;
}

/** stem → its surface forms in the vocabulary, most frequent first, for the stems asked about. */
export function surfacesOf(index: VocabularyIndex, wanted: ReadonlySet<string>): Map<string, string[]> {
  const counts = new Map<string, Map<string, number>>();
  for (const record of index.records) {
    record.stems.forEach((term, position) => {
      if (!wanted.has(term)) return;
      const word = record.words[position] ?? term;
      const forms = counts.get(term) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      counts.set(term, forms);
    });
  }
  const result = new Map<string, string[]>();
  for (const [term, forms] of counts) {
    result.set(
      term,
      [...forms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([word]) => word),
    );
  }
  return result;
}
