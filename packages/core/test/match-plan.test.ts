import { describe, expect, it } from 'vitest';
import {
  allWordsRare,
  atLeastShare,
  bestWindowScore,
  drivingGroups,
  drivingWords,
  groupsShare,
  planLevel,
  scoreOf,
  wordShares,
  type WindowFacts,
} from '../src/memory/match-plan.ts';

const times = (count: number, mask: number): number[] => new Array<number>(count).fill(mask);

const facts = (qualifying: number, masks: number[]): WindowFacts => ({
  qualifying,
  matches: masks.map((mask, i) => ({ id: `r${i}`, mask })),
});

describe('search plan', () => {
  it('scores a row by the number of words it matched', () => {
    expect(scoreOf(0)).toBe(0);
    expect(scoreOf(0b1)).toBe(1);
    expect(scoreOf(0b1011)).toBe(3);
    expect(scoreOf(0xffff)).toBe(16);
  });

  it('measures how often each word occurs among the rows the window may return', () => {
    expect(wordShares(facts(10, [0b01, 0b11, 0b01]), 2)).toEqual([0.3, 0.1]);
    expect(wordShares(facts(0, []), 3)).toEqual([0, 0, 0]);
  });

  it('reads a dense level in recency order', () => {
    // 400 qualifying rows; word 0 in 200 of them, word 1 in 100, both in 50.
    const masks = [...times(150, 0b01), ...times(50, 0b11), ...times(50, 0b10)];
    const window = facts(400, masks);
    const shares = wordShares(window, 2);
    expect(planLevel(window, shares, 2, 10)).toEqual({ kind: 'recent' });
    expect(planLevel(window, shares, 1, 10)).toEqual({ kind: 'recent' });
  });

  it('looks a level up through the word index, driven by the rarest words, when the window saw none of it', () => {
    // Word 2 never occurs in the window: no row there matches all three words.
    const window = facts(400, [...times(200, 0b011), ...times(100, 0b001)]);
    const shares = wordShares(window, 3);
    // A row with all three words holds word 2; a row with two of them holds word 2 or word 1.
    expect(planLevel(window, shares, 3, 10)).toEqual({ kind: 'indexed', driver: [[2]] });
    expect(planLevel(window, shares, 2, 10)).toEqual({ kind: 'recent' });
  });

  it('uses the word index when the driving words are rare even if the window saw the level', () => {
    const window = facts(400, [0b11, 0b01, 0b01]);
    const shares = wordShares(window, 2);
    expect(planLevel(window, shares, 2, 10)).toEqual({ kind: 'indexed', driver: [[1]] });
    expect(allWordsRare(shares)).toBe(true);
    expect(allWordsRare(wordShares(facts(400, times(20, 0b1)), 1))).toBe(false);
  });

  it('drives the word index with the rarest n-k+1 words, and knows the best score the window saw', () => {
    const shares = [0.3, 0, 0.1, 0.05];
    expect(drivingWords(shares, 4)).toEqual([1]);
    expect(drivingWords(shares, 3)).toEqual([1, 3]);
    expect(drivingWords(shares, 1)).toEqual([0, 1, 2, 3]);
    expect(bestWindowScore(facts(10, [0b1, 0b1101, 0b11]))).toBe(3);
    expect(bestWindowScore(facts(10, []))).toBe(0);
  });

  it('probes a level of common words the window saw none of in recency order before the word index', () => {
    // Two common words that never occur together in the window.
    const window = facts(400, [...times(200, 0b01), ...times(150, 0b10)]);
    // Taken as independent, 1/2 and 3/8 of the rows promise both words in 3/16 of them.
    expect(planLevel(window, wordShares(window, 2), 2, 10)).toEqual({ kind: 'probe', driver: [[0, 1]], rows: 1000 });
    // A level that many words must meet is not worth a probe.
    const wide = facts(400, [...times(40, 0b0001), ...times(40, 0b0010), ...times(40, 0b0100), ...times(40, 0b1000)]);
    // Four words in a tenth of the rows each: a row with all four holds the two rarest together,
    // a pair rare enough for the word index.
    expect(planLevel(wide, wordShares(wide, 4), 4, 10)).toEqual({ kind: 'indexed', driver: [[0, 1]] });
  });

  it('drives a level of common words with pairs: a row missing at most n-k words holds two of any n-k+2', () => {
    // Seven words; the rarest two (4 and 6) are common: a row with 6 of the 7 holds 4 or 6, and
    // also two of the three rarest (4, 5, 6).
    const shares = [0.4, 0.5, 0.3, 0.35, 0.1, 0.2, 0.15];
    expect(drivingWords(shares, 6)).toEqual([4, 6]);
    expect(drivingGroups(shares, 6)).toEqual([
      [4, 5],
      [4, 6],
      [5, 6],
    ]);
    expect(groupsShare(drivingGroups(shares, 6), shares)).toBeCloseTo(0.02 + 0.015 + 0.03);
    // Rare words keep driving alone; one word per level, or too many pairs, keep the words' OR.
    expect(drivingGroups([0.001, 0.3, 0.002], 3)).toEqual([[0]]);
    expect(drivingGroups(shares, 1)).toEqual(shares.map((_, i) => [i]));
    expect(drivingGroups(shares, 3)).toEqual([[2], [3], [4], [5], [6]]);
  });

  it('estimates the share of rows with at least k words as if the words were independent', () => {
    expect(atLeastShare([0.5, 0.5], 2)).toBeCloseTo(0.25);
    expect(atLeastShare([0.5, 0.5], 1)).toBeCloseTo(0.75);
    expect(atLeastShare([0.1, 0.2, 0.3], 0)).toBeCloseTo(1);
  });
});
