/**
 * How search finds the best records without scoring every row that holds a query word (see
 * docs/decisions/search-plan.md). It first reads the newest rows of the workspace (the window)
 * and scores them; what it saw there decides how each level of score is looked for in the older
 * rows: in recency order when the level is dense, through the word index when it is rare.
 */

/** The newest rows of a workspace that search scores first. */
export const WINDOW_ROWS = 400;
/** Query words whose summed share of the window stays under this are rare enough for the word index. */
export const RARE_SHARE = 0.02;
/** At most this many older rows are read in recency order for a level the window saw none of. */
export const PROBE_ROWS = 12_000;

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

export type LevelPlan =
  /** Older rows in recency order, each scored, until enough are found: when the level is dense. */
  | { kind: 'recent' }
  /** Older rows that hold every word of one of these groups (by index), found through the word index. */
  | { kind: 'indexed'; driver: number[][] }
  /**
   * The window saw no row of the level, and the words that drive the index are common: when the
   * words' shares (taken as independent) promise enough rows of the level within PROBE_ROWS, that
   * many older rows are read in recency order first, then the word index for the rows older still.
   */
  | { kind: 'probe'; driver: number[][]; rows: number };

/**
 * How to find older rows that match at least k of the words. Any such row holds at least one of
 * any n-k+1 of the words, so the rarest n-k+1 words can drive the word index when they are rare.
 * When they are common, the recency order meets the level's rows early if the window showed some;
 * if it showed none, a bounded probe in recency order comes first.
 */
export function planLevel(facts: WindowFacts, shares: readonly number[], k: number, need: number): LevelPlan {
  // The kind of plan is chosen on the words' OR, as the rows they drive; the index is then driven by
  // the groups, which hold no more rows (a pair's share taken as independent understates words that
  // come together, such as a release that failed).
  const driver = drivingGroups(shares, k);
  const driverShare = groupsShare(
    drivingWords(shares, k).map((index) => [index]),
    shares,
  );
  const seenAtLevel = facts.matches.some((match) => scoreOf(match.mask) >= k);
  if (driverShare <= RARE_SHARE) return { kind: 'indexed', driver };
  if (seenAtLevel) return { kind: 'recent' };
  const expected = atLeastShare(shares, k);
  const rows = expected === 0 ? Infinity : Math.ceil((1.5 * need) / expected);
  return rows <= PROBE_ROWS
    ? { kind: 'probe', driver, rows: Math.max(rows, 1000) }
    : { kind: 'indexed', driver };
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

/** The `count` rarest words (by index, ascending). */
function rarest(shares: readonly number[], count: number): number[] {
  return shares
    .map((share, index) => ({ share, index }))
    .sort((a, b) => a.share - b.share || a.index - b.index)
    .slice(0, Math.max(0, count))
    .map((word) => word.index)
    .sort((a, b) => a - b);
}

/** The rarest n-k+1 words (by index, ascending): every row with at least k of the n words holds one. */
export function drivingWords(shares: readonly number[], k: number): number[] {
  return rarest(shares, shares.length - k + 1);
}

/** At most this many pairs of words drive a level; past it, a longer tsquery costs more than it saves. */
const MAX_PAIRS = 10;

/**
 * What drives the word index for level k, as groups of words (by index): every row with at least k
 * of the n words holds all the words of one group. The rarest n-k+1 words, one per group, when they
 * are rare. When they are common, pairs of the rarest n-k+2 words: such a row misses at most n-k of
 * the words, so it holds two of any n-k+2 of them, and the rows holding a pair are far fewer than
 * those holding one word (a question's level of 6 of 7 words read 67,000 rows through its two
 * rarest words, each common once its forms and synonyms count).
 */
export function drivingGroups(shares: readonly number[], k: number): number[][] {
  const words = drivingWords(shares, k);
  const single = words.map((index) => [index]);
  const paired = shares.length - k + 2;
  const pairs = (paired * (paired - 1)) / 2;
  if (k < 2 || paired > shares.length || pairs > MAX_PAIRS || groupsShare(single, shares) <= RARE_SHARE)
    return single;
  const candidates = rarest(shares, paired);
  return candidates.flatMap((first, i) => candidates.slice(i + 1).map((second) => [first, second]));
}

/** The share of rows holding all the words of some group, at most, if the words occurred independently. */
export function groupsShare(groups: readonly number[][], shares: readonly number[]): number {
  const shareOf = (group: readonly number[]) =>
    group.reduce((product, index) => product * (shares[index] ?? 0), 1);
  return Math.min(
    1,
    groups.reduce((sum, group) => sum + shareOf(group), 0),
  );
}

/** The best score among the window's rows: levels above it are rare, and looked up together. */
export function bestWindowScore(facts: WindowFacts): number {
  return facts.matches.reduce((best, match) => Math.max(best, scoreOf(match.mask)), 0);
}

/** True when all the words are rare: one scored query through the word index finds every level. */
export function allWordsRare(shares: readonly number[]): boolean {
  return shares.reduce((sum, share) => sum + share, 0) <= RARE_SHARE;
}
