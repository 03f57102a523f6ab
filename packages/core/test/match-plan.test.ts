import { describe, expect, it } from 'vitest';
import {
  atLeastShare,
  drivingWords,
  levelWithin,
  horizonRows,
  lowestIndexedLevel,
  MAX_HORIZON_ROWS,
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

  it('drives the word index with the rarest n-k+1 words', () => {
    const shares = [0.3, 0, 0.1, 0.05];
    expect(drivingWords(shares, 4)).toEqual([1]);
    expect(drivingWords(shares, 3)).toEqual([1, 3]);
    expect(drivingWords(shares, 1)).toEqual([0, 1, 2, 3]);
  });

  it('finds through the word index every level whose driving words are rare together', () => {
    // All rare: every level, down to a single word.
    expect(lowestIndexedLevel(wordShares(facts(400, [0b11, 0b01, 0b01]), 2))).toBe(1);
    // Word 2 never occurs in the window: a row with all three holds it; a row with two of them
    // holds word 2 or word 1, which is common.
    expect(lowestIndexedLevel(wordShares(facts(400, [...times(200, 0b011), ...times(100, 0b001)]), 3))).toBe(3);
    // Every word common: no level is rare, not even all of them together.
    expect(lowestIndexedLevel(wordShares(facts(400, times(40, 0b11)), 2))).toBe(3);
    // Rare words, together just over the bound at level 1 (7 + 2 of 400), under it from level 2.
    expect(lowestIndexedLevel(wordShares(facts(400, [...times(7, 0b01), ...times(2, 0b10)]), 2))).toBe(2);
  });

  it('scores fewer older rows the more words a query has, and never more than the cap', () => {
    expect(horizonRows(16)).toBe(2_500);
    expect(horizonRows(4)).toBe(MAX_HORIZON_ROWS);
    expect(horizonRows(1)).toBe(MAX_HORIZON_ROWS);
    expect(horizonRows(0)).toBe(MAX_HORIZON_ROWS);
  });

  it('expects a level early in recency order from the window, or from the words taken as independent', () => {
    // Two rows of 400 hold both words: 8 more are expected within 1.5 × 8 × 200 = 2,400 rows.
    const seen = facts(400, [0b11, 0b11, ...times(100, 0b01), ...times(100, 0b10)]);
    expect(levelWithin(seen, wordShares(seen, 2), 2, 8, 2_400)).toBe(true);
    expect(levelWithin(seen, wordShares(seen, 2), 2, 8, 2_399)).toBe(false);
    // None of 400 holds both; each word in half of them: a quarter of the older rows should.
    const unseen = facts(400, [...times(200, 0b01), ...times(200, 0b10)]);
    expect(levelWithin(unseen, wordShares(unseen, 2), 2, 10, 60)).toBe(true);
    // A word the window never saw: no row of the level is expected at all.
    expect(levelWithin(unseen, [0.5, 0], 2, 1, 10_000)).toBe(false);
  });

  it('estimates the share of rows with at least k words as if the words were independent', () => {
    expect(atLeastShare([0.5, 0.5], 2)).toBeCloseTo(0.25);
    expect(atLeastShare([0.5, 0.5], 1)).toBeCloseTo(0.75);
    expect(atLeastShare([0.1, 0.2, 0.3], 0)).toBeCloseTo(1);
  });
});
