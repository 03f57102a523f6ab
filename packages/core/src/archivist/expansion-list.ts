import { isStopword } from './stopwords.ts';
import { isContentWord, tokenize } from './text.ts';

export const maxExpansionTerms = 12;

/** Lowercase single words in the order found, without the query's words, capped. */
export class ExpansionList {
  private readonly seen: Set<string>;
  private readonly added: string[] = [];

  constructor(query: Iterable<string>) {
    this.seen = new Set(query);
  }

  add(term: string): void {
    for (const word of tokenize(term)) {
      if (this.added.length >= maxExpansionTerms || this.seen.has(word)) continue;
      if (isStopword(word) || !isContentWord(word) || /^\d+$/.test(word)) continue;
      this.seen.add(word);
      this.added.push(word);
    }
  }

  terms(): string[] {
    return [...this.added];
  }
}
