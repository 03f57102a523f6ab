import { announcesChange, flipsAntonym, isNegated } from './language-cues.ts';
import { stem, tokenize } from './text.ts';
import type { ValueProfile } from './values.ts';

export interface StatementView {
  text: string;
  values: ValueProfile;
  /** Stemmed content words. */
  terms: ReadonlySet<string>;
}

/** Why a newer record contradicts an older one on the same topic, or null when it does not. */
export function findContradiction(
  older: StatementView,
  newer: StatementView,
): string | null {
  const numbers = differingNumbers(older.values, newer.values);
  if (numbers !== null) return numbers;
  const terms = differingTerms(older.values, newer.values);
  if (terms !== null) return terms;
  if (flipsAntonym(older.text, newer.text)) return 'the newer record states the opposite';
  if (isNegated(older.text) !== isNegated(newer.text)) return 'the newer record negates the older one';
  if (announcesChange(newer.text, older.text) && dropsContent(older.terms, newer.terms)) {
    return 'the newer record announces a change';
  }
  return null;
}

/** The same quantity (same unit) with a value each side lacks: "100 requests" vs "300 requests". */
function differingNumbers(older: ValueProfile, newer: ValueProfile): string | null {
  for (const [unit, oldValues] of older.numbers) {
    const newValues = newer.numbers.get(unit);
    if (newValues === undefined) continue;
    const gone = [...oldValues].filter((value) => !newValues.has(value));
    const added = [...newValues].filter((value) => !oldValues.has(value));
    const [was] = gone;
    const [now] = added;
    if (was !== undefined && now !== undefined) return describe(unit, was, now);
  }
  return null;
}

/**
 * A name or identifier only the older record has, replaced by one only the newer has. A value is
 * not "only" on one side when its words occur on the other side in any form (Staging ~ staging).
 */
function differingTerms(older: ValueProfile, newer: ValueProfile): string | null {
  const onlyIn = (own: ValueProfile, other: ValueProfile): string[] =>
    [...own.terms].filter(
      (term) => !other.terms.has(term) && !tokenize(term).every((word) => other.stems.has(stem(word))),
    );
  const [was] = onlyIn(older, newer);
  const [now] = onlyIn(newer, older);
  return was !== undefined && now !== undefined ? `${was} → ${now}` : null;
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
