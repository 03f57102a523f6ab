import { announcesChange, flipsAntonym, isNegated } from './language-cues.ts';
import { stem, terms, tokenize } from './text.ts';
import type { ValueProfile } from './values.ts';

const negationWords = new Set(['longer', 'anymor', 'remov', 'drop', 'deprec', 'retir', 'decommiss', 'avoid']);
const retraction = /\b(?:removed|dropped|deprecated|retired|decommissioned|avoid)\b/i;
/** "moved from Linear to Jira", "switched from npm to pnpm", "replaced Jest with Vitest". */
const replacement =
  /\b(?:from|replaced|replace|replacing)\s+([\p{L}\p{N}][\p{L}\p{N}._\-/]*)\s+(?:to|with|by)\s+([\p{L}\p{N}][\p{L}\p{N}._\-/]*)/giu;
const retracts = (clause: string): boolean => retraction.test(clause);

export interface StatementView {
  text: string;
  values: ValueProfile;
  /** Stemmed content words. */
  terms: ReadonlySet<string>;
}

/** Why a newer record contradicts an older one on the same topic, or null when it does not. */
export function findContradiction(older: StatementView, newer: StatementView): string | null {
  return (
    differingNumbers(older.values, newer.values) ??
    differingTerms(older.values, newer.values) ??
    replacedValue(older, newer) ??
    (flipsAntonym(older.text, newer.text) ? 'the newer record states the opposite' : null) ??
    (negatesTheOther(older, newer) ? 'the newer record negates the older one' : null) ??
    (announcesChange(newer.text, older.text) &&
    dropsContent(older.terms, newer.terms) &&
    !confirmsEveryValue(older.values, newer.values)
      ? 'the newer record announces a change'
      : null)
  );
}

/** The same quantity (same unit) with a value each side lacks: "100 requests" vs "300 requests". */
function differingNumbers(older: ValueProfile, newer: ValueProfile): string | null {
  for (const [unit, oldValues] of older.numbers) {
    const newValues = newer.numbers.get(unit);
    if (newValues === undefined) continue;
    const [was] = [...oldValues].filter((value) => !newValues.has(value));
    const [now] = [...newValues].filter((value) => !oldValues.has(value));
    if (was !== undefined && now !== undefined) return describe(unit, was, now);
  }
  return null;
}

/**
 * A name or identifier replaced by another: either each side has one the other lacks, or the
 * newer puts a new value where the older had another ("sent through SendGrid" → "sent through
 * Postmark", even when the newer still mentions SendGrid elsewhere).
 */
function differingTerms(older: ValueProfile, newer: ValueProfile): string | null {
  const oldOnly = onlyIn(older, newer);
  const newOnly = onlyIn(newer, older);
  const [was] = oldOnly;
  const [now] = newOnly;
  if (was !== undefined && now !== undefined) return `${was} → ${now}`;
  for (const value of newOnly) {
    const slot = newer.terms.get(value);
    if (slot === undefined || slot === '') continue;
    for (const [previous, previousSlot] of older.terms) {
      if (previousSlot === slot && previous !== value) return `${previous} → ${value}`;
    }
  }
  return null;
}

/**
 * Values of `own` that `other` lacks. A single word also counts as present when the other side
 * has it in any form (Staging ~ staging); an identifier such as a path or host must match exactly.
 */
function onlyIn(own: ValueProfile, other: ValueProfile): string[] {
  return [...own.terms.keys()].filter((value) => {
    if (other.terms.has(value)) return false;
    const words = tokenize(value);
    const [word] = words;
    return !(words.length === 1 && word !== undefined && other.stems.has(stem(word)));
  });
}

/** The newer record names the older one's value as the one it replaced. */
function replacedValue(older: StatementView, newer: StatementView): string | null {
  for (const match of newer.text.matchAll(replacement)) {
    const [, was = '', now = ''] = match;
    const mentions = (value: string): boolean =>
      tokenize(value).every((word) => older.values.stems.has(stem(word)));
    if (mentions(was) && !mentions(now)) return `${was.toLowerCase()} → ${now.toLowerCase()}`;
  }
  return null;
}

/**
 * One side negates or retracts a statement the other makes: the negated clause ("squash merges
 * are no longer required", "the certbot cron job was removed") is about what the other side says.
 */
function negatesTheOther(older: StatementView, newer: StatementView): boolean {
  const negatedIn = (side: StatementView, other: StatementView): boolean =>
    !isNegated(other.text) &&
    side.text.split(/[;,.!?()]\s|[;!?()]/).some((clause) => {
      if (!isNegated(clause) && !retracts(clause)) return false;
      const said = terms(clause).filter((term) => !negationWords.has(term));
      const shared = said.filter((term) => other.terms.has(term)).length;
      return shared > 0 && shared >= said.length / 2;
    });
  return negatedIn(newer, older) || negatedIn(older, newer);
}

/**
 * The newer record repeats every value the older one asserts, so its change language is about
 * something else: "upgraded to PostgreSQL 16.2" does not outdate "the version is 16.2".
 */
function confirmsEveryValue(older: ValueProfile, newer: ValueProfile): boolean {
  let count = older.terms.size;
  for (const [unit, values] of older.numbers) {
    for (const value of values) {
      count += 1;
      if (newer.numbers.get(unit)?.has(value) !== true) return false;
    }
  }
  return count > 0 && onlyIn(older, newer).length === 0;
}

/** Whether the older record says something the newer one leaves out (so it is not a mere addition). */
function dropsContent(older: ReadonlySet<string>, newer: ReadonlySet<string>): boolean {
  for (const word of older) if (!newer.has(word)) return true;
  return false;
}

function describe(unit: string, was: string, now: string): string {
  if (unit === '' || unit === 'dotted') return `${was} → ${now}`;
  if (unit === 'time' || unit === 'date') return `${unit} ${was} → ${now}`;
  return `${unit}: ${was} → ${now}`;
}
