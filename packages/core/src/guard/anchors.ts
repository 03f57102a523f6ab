/**
 * Cheap gates in front of the rule patterns. Most rules need two rare-ish words in one sentence
 * ("ignore" and "instructions"). Every anchor group is registered in one vocabulary up front; a
 * text is scanned once, each word is hashed in place and marks, for the groups it belongs to, the
 * sentence it stands in. A rule's pattern then only runs on the sentences where all of its groups
 * hit, usually none. This is what keeps the guard cheap on every write.
 */

/** Group ids; a rule's anchors are satisfied in a sentence when every group has a needle there. */
export type Anchors = readonly number[];

export interface Gated {
  readonly anchors: Anchors;
  readonly pattern: RegExp;
}

/** Words of space-separated scripts are looked up whole; anything else is searched as a substring. */
const WORD_NEEDLE = /^[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}\p{N}]+$/u;
const NON_ASCII_CHAR = /[\u0080-\uffff]/;

/** Vocabulary words by hash (see wordHash); a collision only lets a pattern run needlessly. */
const vocabulary = new Map<number, number[]>();
const substringsByGroup: Array<readonly string[]> = [];
/** The ASCII needles of each group; an ASCII text can only contain those. */
const asciiSubstringsByGroup: Array<readonly string[]> = [];

/** FNV-1a over the UTF-16 code units of text[start, end): words are hashed in place, never sliced. */
function wordHash(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  // 30 bits keep the hash a small integer, so hashing a word allocates nothing.
  return hash & 0x3fffffff;
}

/** ASCII letters and digits, and non-ASCII characters other than common punctuation and spaces. */
function isWordChar(code: number): boolean {
  if (code < 128)
    return (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || (code >= 65 && code <= 90);
  return !(
    (code >= 0xa0 && code <= 0xbf) ||
    (code >= 0x2000 && code <= 0x206f) ||
    (code >= 0x3000 && code <= 0x303f) ||
    (code >= 0xff01 && code <= 0xff0f) ||
    (code >= 0xff1a && code <= 0xff20)
  );
}

function register(group: readonly string[]): number {
  const id = substringsByGroup.length;
  const substrings: string[] = [];
  for (const needle of group) {
    if (WORD_NEEDLE.test(needle)) {
      const hash = wordHash(needle, 0, needle.length);
      const ids = vocabulary.get(hash) ?? [];
      ids.push(id);
      vocabulary.set(hash, ids);
    } else {
      // A trailing `*` marks a prefix ("инструкци*"), searched as a substring.
      substrings.push(needle.replace(/\*$/, ''));
    }
  }
  substringsByGroup.push(substrings);
  asciiSubstringsByGroup.push(substrings.filter((needle) => !NON_ASCII_CHAR.test(needle)));
  return id;
}

/** Registers anchor groups; call at module load, never per text. */
export function anchors(groups: ReadonlyArray<readonly string[]>): Anchors {
  return groups.map(register);
}

export function gated(groups: ReadonlyArray<readonly string[]>, pattern: RegExp): Gated {
  return { anchors: anchors(groups), pattern };
}

/**
 * Sentences are tracked as bits of a 32-bit mask; sentence 31 and all after it share the last bit,
 * which then stands for "the rest of the text".
 */
const LAST_BIT = 31;
const ALL = 0xffffffff;

interface Prepared {
  readonly text: string;
  readonly ascii: boolean;
  /** Sentence start offsets (a sentence ends at `.`, `!`, `?` or `;` followed by a space). */
  readonly starts: number[];
  /** Per group: sentences hit by a word. */
  readonly wordMasks: Int32Array;
  /** Per group: sentences hit by a substring needle, once searched. */
  readonly substringMasks: Int32Array;
  readonly searched: Uint8Array;
}

let prepared: Prepared | null = null;

function prepare(text: string): Prepared {
  if (prepared?.text === text) return prepared;
  const wordMasks = new Int32Array(substringsByGroup.length);
  const starts = [0];
  let bit = 1;
  let sentence = 0;
  let wordStart = -1;
  let hash = 0;
  // One pass: hash each word in place (FNV-1a, as in wordHash) and mark the groups it belongs to.
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    if (isWordChar(code)) {
      if (wordStart < 0) {
        wordStart = i;
        hash = 0x811c9dc5;
      }
      hash = Math.imul(hash ^ code, 0x01000193);
      continue;
    }
    if (wordStart >= 0) {
      const ids = vocabulary.get(hash & 0x3fffffff);
      if (ids !== undefined) for (const id of ids) wordMasks[id] = (wordMasks[id] ?? 0) | bit;
      wordStart = -1;
    }
    // `.` `!` `?` `;` followed by a space ends a sentence.
    if ((code === 46 || code === 33 || code === 63 || code === 59) && text.charCodeAt(i + 1) === 32) {
      sentence += 1;
      starts.push(i + 2);
      bit = 1 << Math.min(sentence, LAST_BIT);
    }
  }
  prepared = {
    text,
    ascii: !NON_ASCII_CHAR.test(text),
    starts,
    wordMasks,
    substringMasks: new Int32Array(substringsByGroup.length),
    searched: new Uint8Array(substringsByGroup.length),
  };
  return prepared;
}

function sentenceOf(facts: Prepared, offset: number): number {
  let low = 0;
  let high = facts.starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((facts.starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return Math.min(low, LAST_BIT);
}

/** Sentences containing a substring needle of the group (searched lazily, once per text). */
function groupMask(facts: Prepared, id: number): number {
  const words = facts.wordMasks[id] ?? 0;
  if (facts.searched[id] === 1) return words | (facts.substringMasks[id] ?? 0);
  let mask = 0;
  const needles = (facts.ascii ? asciiSubstringsByGroup : substringsByGroup)[id] ?? [];
  for (const needle of needles) {
    for (let at = facts.text.indexOf(needle); at >= 0; at = facts.text.indexOf(needle, at + 1)) {
      mask |= 1 << sentenceOf(facts, at);
    }
  }
  facts.substringMasks[id] = mask;
  facts.searched[id] = 1;
  return words | mask;
}

const NONE: readonly string[] = Object.freeze([]);

/** Sentences (as a bit mask) of a normalized text in which every anchor group hits. */
function candidateMask(groups: Anchors, text: string): number {
  const facts = prepare(text);
  let mask = ALL | 0;
  for (const id of groups) {
    mask &= groupMask(facts, id);
    if (mask === 0) return 0;
  }
  return mask;
}

/** The sentences of a normalized text in which every anchor group hits. */
export function candidateSentences(groups: Anchors, text: string): readonly string[] {
  const mask = candidateMask(groups, text);
  if (mask === 0) return NONE;
  const facts = prepare(text);
  const found: string[] = [];
  for (let sentence = 0; sentence < facts.starts.length && sentence <= LAST_BIT; sentence += 1) {
    if ((mask & (1 << sentence)) === 0) continue;
    const start = facts.starts[sentence] ?? 0;
    const end = sentence === LAST_BIT ? text.length : (facts.starts[sentence + 1] ?? text.length + 2) - 1;
    found.push(text.slice(start, end));
  }
  return found;
}

export function anchorsHit(groups: Anchors, text: string): boolean {
  return candidateMask(groups, text) !== 0;
}

/** Whether the pattern matches one of the sentences where the anchors hit. */
export function matchesIn(groups: Anchors, pattern: { test(text: string): boolean }, text: string): boolean {
  if (candidateMask(groups, text) === 0) return false;
  for (const sentence of candidateSentences(groups, text)) {
    if (pattern.test(sentence)) return true;
  }
  return false;
}

export function passes(rule: Gated, text: string): boolean {
  return matchesIn(rule.anchors, rule.pattern, text);
}
