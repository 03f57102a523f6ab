/**
 * TF-IDF cosine similarity over a small corpus (the new record and its candidates). Term frequency
 * is dampened (1 + ln tf) so a repeated word does not dominate; idf is smoothed
 * (ln((1 + n) / (1 + df)) + 1) so that with only a handful of documents shared words still count.
 */
export interface TermVector {
  weights: Map<string, number>;
  norm: number;
}

export interface Corpus {
  vector(terms: readonly string[]): TermVector;
}

export function createCorpus(documents: ReadonlyArray<readonly string[]>): Corpus {
  const documentFrequency = new Map<string, number>();
  for (const document of documents) {
    for (const term of new Set(document)) {
      documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
    }
  }
  const n = documents.length;
  const idf = (term: string): number => Math.log((1 + n) / (1 + (documentFrequency.get(term) ?? 0))) + 1;

  return {
    vector(terms) {
      const counts = new Map<string, number>();
      for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
      const weights = new Map<string, number>();
      let squares = 0;
      for (const [term, count] of counts) {
        const weight = (1 + Math.log(count)) * idf(term);
        weights.set(term, weight);
        squares += weight * weight;
      }
      return { weights, norm: Math.sqrt(squares) };
    },
  };
}

export function cosine(a: TermVector, b: TermVector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const [small, large] = a.weights.size <= b.weights.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, weight] of small.weights) {
    const other = large.weights.get(term);
    if (other !== undefined) dot += weight * other;
  }
  return Math.min(1, dot / (a.norm * b.norm));
}
