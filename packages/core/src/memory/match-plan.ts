/**
 * How search finds the best records without scoring every row that holds a query word (see
 * docs/decisions/0006-search-plan.md and 0061). It first reads the newest rows of the workspace (the
 * window) and scores them; what it saw there decides which levels of score the word index can find
 * cheaply in the older rows. The other levels are looked for in a bounded number of older rows.
 */

/** The newest rows of a workspace that search scores first. */
export const WINDOW_ROWS = 400;
/** Query words whose summed share of the window stays under this are rare enough for the word index. */
export const RARE_SHARE = 0.02;
/**
 * Past the window, the levels the word index cannot find cheaply are looked for in the older rows in
 * recency order, scoring at most this many (row, word) pairs: 2,500 rows for 16 words, 10,000 for 4.
 */
export const HORIZON_MATCHES = 40_000;
export const MAX_HORIZON_ROWS = 10_000;

/** A row of the window that may be returned and holds at least one query word. */
export interface WindowMatch {
  id: string;
  /** Bit i is set when word i matched. */
  mask: number;
}

export interface WindowFacts {
  /** Rows of the window that may be returned (visible, in scope), matching or not. */
  qualifying: number;
  /** The matching ones, newest first. */
  matches: WindowMatch[];
}

export function scoreOf(mask: number): number {
  let score = 0;
  for (let bits = mask; bits !== 0; bits &= bits - 1) score++;
  return score;
}

/** The share of the window's qualifying rows that hold each word. */
export function wordShares(facts: WindowFacts, wordCount: number): number[] {
  const counts = new Array<number>(wordCount).fill(0);
  for (const match of facts.matches) {
    for (let i = 0; i < wordCount; i++) if (match.mask & (1 << i)) counts[i] = (counts[i] ?? 0) + 1;
  }
  return counts.map((count) => (facts.qualifying === 0 ? 0 : count / facts.qualifying));
}

/** The rarest n-k+1 words (by index, ascending): every row with at least k of the n words holds one. */
export function drivingWords(shares: readonly number[], k: number): number[] {
  return shares
    .map((share, index) => ({ share, index }))
    .sort((a, b) => a.share - b.share || a.index - b.index)
    .slice(0, Math.max(0, shares.length - k + 1))
    .map((word) => word.index)
    .sort((a, b) => a - b);
}

/**
 * The lowest level k whose rows the word index finds cheaply: the n-k+1 rarest words, which every
 * row of the level holds one of, are rare together. Levels from there up are found through the
 * index in the whole workspace; n+1 when even the rarest word is common.
 */
export function lowestIndexedLevel(shares: readonly number[]): number {
  for (let k = 1; k <= shares.length; k++) {
    const share = drivingWords(shares, k).reduce((sum, index) => sum + (shares[index] ?? 0), 0);
    if (share <= RARE_SHARE) return k;
  }
  return shares.length + 1;
}

/** The share of rows holding at least k of the words, if the words occurred independently. */
export function atLeastShare(shares: readonly number[], k: number): number {
  // exactly[j]: probability that exactly j of the words seen so far occur.
  let exactly = [1];
  for (const share of shares) {
    const next = new Array<number>(exactly.length + 1).fill(0);
    exactly.forEach((p, j) => {
      next[j] = (next[j] ?? 0) + p * (1 - share);
      next[j + 1] = (next[j + 1] ?? 0) + p * share;
    });
    exactly = next;
  }
  return exactly.slice(k).reduce((sum, p) => sum + p, 0);
}

/**
 * True when `need` rows with at least k of the words may be expected within `horizon` older rows:
 * from the share of such rows in the window, or, when it holds none, from the words' shares taken
 * as independent. Such a level is read newest first, and the read stops once they are found.
 */
export function levelWithin(
  facts: WindowFacts,
  shares: readonly number[],
  k: number,
  need: number,
  horizon: number,
): boolean {
  const seen = facts.matches.filter((match) => scoreOf(match.mask) >= k).length;
  const share = seen > 0 ? seen / facts.qualifying : atLeastShare(shares, k);
  return share > 0 && (1.5 * need) / share <= horizon;
}

/** How many older rows search scores in recency order for the levels the word index does not serve. */
export function horizonRows(wordCount: number): number {
  return Math.min(MAX_HORIZON_ROWS, Math.floor(HORIZON_MATCHES / Math.max(1, wordCount)));
}
