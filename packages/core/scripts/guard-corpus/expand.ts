/**
 * The corpus generator's template language: `{slot}` is replaced by a value picked from the
 * vocabulary (values may hold slots of their own), `{a|b|c}` picks one of the alternatives inline.
 * Every pick comes from one seeded generator, so the corpus is the same on every run. Literal
 * braces (JSON, `{{placeholders}}`) are written ⦃ and ⦄ and restored by `render`.
 */
export type Vocabulary = Readonly<Record<string, readonly string[]>>;

export interface Rng {
  next(): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32: small, fast and good enough for picking template slots. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    pick<T>(items: readonly T[]): T {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance: (probability) => next() < probability,
  };
}

const MAX_DEPTH = 6;

export function render(template: string, vocabulary: Vocabulary, rng: Rng): string {
  return expand(template, vocabulary, rng).replace(/⦃/g, '{').replace(/⦄/g, '}');
}

export function expand(template: string, vocabulary: Vocabulary, rng: Rng, depth = 0): string {
  if (depth > MAX_DEPTH) throw new Error(`template nests too deep: ${template}`);
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open === -1) {
      out += template.slice(i);
      break;
    }
    const close = findClose(template, open);
    out += template.slice(i, open);
    const inner = template.slice(open + 1, close);
    const alternatives = splitTop(inner);
    if (alternatives.length > 1) {
      out += expand(rng.pick(alternatives), vocabulary, rng, depth + 1);
    } else {
      const values = vocabulary[inner];
      if (values === undefined) throw new Error(`unknown slot {${inner}}`);
      out += expand(rng.pick(values), vocabulary, rng, depth + 1);
    }
    i = close + 1;
  }
  return out;
}

/** The index of the `}` that closes the `{` at `open`, counting nested braces. */
function findClose(template: string, open: number): number {
  let level = 0;
  for (let i = open; i < template.length; i += 1) {
    if (template[i] === '{') level += 1;
    else if (template[i] === '}') {
      level -= 1;
      if (level === 0) return i;
    }
  }
  throw new Error(`unclosed slot in: ${template}`);
}

/** Splits `a|b|{c|d}` on the top-level bars only. */
function splitTop(inner: string): string[] {
  const parts: string[] = [];
  let level = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i += 1) {
    const char = inner[i];
    if (char === '{') level += 1;
    else if (char === '}') level -= 1;
    else if (char === '|' && level === 0) {
      parts.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(inner.slice(start));
  return parts;
}
