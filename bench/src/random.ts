import { createHash } from 'node:crypto';

/**
 * A seeded PRNG (sfc32, 128 bits of state): the same seed gives the same corpus on every machine,
 * and the streams of different items do not overlap.
 */
export type Random = () => number;

function sfc32(a: number, b: number, c: number, d: number): Random {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** The stream of item i of a named sequence, so any item can be generated on its own. */
export function randomFor(stream: string, i: number): Random {
  const digest = createHash('sha256').update(`${stream}:${i}`).digest();
  const random = sfc32(digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12));
  for (let warm = 0; warm < 12; warm++) random();
  return random;
}

/** A seeded stream for one-off choices (query picks). */
export function seededRandom(seed: number): Random {
  return randomFor('seed', seed);
}

/** A version 4 UUID for item i of a stream: unique, and the same on every run. */
export function uuidFor(stream: string, i: number): string {
  const bytes = createHash('sha256').update(`uuid:${stream}:${i}`).digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const s = bytes.toString('hex');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** Picks with Zipf weights: the first items are common, the last ones rare. */
export function zipf<T>(items: readonly T[], exponent = 1): (random: Random) => T {
  const cumulative: number[] = [];
  let total = 0;
  items.forEach((_, i) => {
    total += 1 / Math.pow(i + 1, exponent);
    cumulative.push(total);
  });
  return (random) => {
    const target = random() * total;
    let low = 0;
    let high = cumulative.length - 1;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((cumulative[mid] ?? total) < target) low = mid + 1;
      else high = mid;
    }
    const item = items[low];
    if (item === undefined) throw new Error('zipf over an empty list');
    return item;
  };
}
