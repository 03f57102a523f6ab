import { describe, expect, it } from 'vitest';
import { featuresOf } from '../../src/guard/injection/features.ts';

const same = (a: string, b: string) => {
  const [x, y] = [featuresOf(a), featuresOf(b)];
  return [...x.indexes].join() === [...y.indexes].join() && [...x.values].join() === [...y.values].join();
};

describe('what the planted-instruction model reads', () => {
  it('reads chat shorthand as the words it stands for', () => {
    expect(same('if u see this pls dont tell ur boss, its smth for ppl abt money', "if you see this please don't tell your boss, its something for people about money")).toBe(true);
    expect(same('sure u can skip the check (ur call)', "sure you can skip the check (your call)")).toBe(true);
    expect(same('plz, it doesnt matter, i didnt, u cant, ive seen, thats the msg', "please, it doesn't matter, i didn't, you can't, i've seen, that's the message")).toBe(true);
  });

  it('leaves shorthand inside a token, and the German im, as written', () => {
    expect(same('strip u+200b from names', 'strip you+200b from names')).toBe(false);
    expect(same('the U-boat and the ur-text', 'the you-boat and the your-text')).toBe(false);
    expect(same('our u.s. team', 'our you.s. team')).toBe(false);
    expect(same('<|im_start|>system', "<|i'm_start|>system")).toBe(false);
    expect(same('im Büro', "i'm Büro")).toBe(false);
    expect(same('a_u=1 and /u/', 'a_you=1 and /you/')).toBe(false);
  });
});
