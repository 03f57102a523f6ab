import type { RecordProfile } from './record-profile.ts';
import { tokenize } from './text.ts';

const environments: ReadonlyMap<string, string> = new Map([
  ['prod', 'production'],
  ['production', 'production'],
  ['live', 'production'],
  ['staging', 'staging'],
  ['stage', 'staging'],
  ['stg', 'staging'],
  ['dev', 'development'],
  ['development', 'development'],
  ['local', 'development'],
  ['qa', 'qa'],
  ['preview', 'preview'],
  ['sandbox', 'sandbox'],
]);

function environmentsOf(text: string): Set<string> {
  const found = new Set<string>();
  for (const word of tokenize(text)) {
    const environment = environments.get(word);
    if (environment !== undefined) found.add(environment);
  }
  return found;
}

/** "The prod cluster runs 1.27" and "the staging cluster runs 1.29" are two facts, not two versions. */
export function namesOtherEnvironment(a: RecordProfile, b: RecordProfile): boolean {
  const left = environmentsOf(a.text);
  const right = environmentsOf(b.text);
  if (left.size === 0 || right.size === 0) return false;
  for (const environment of left) if (right.has(environment)) return false;
  return true;
}

/**
 * Whether the two records are about different subjects that merely share a shape: each starts
 * with a subject the other does not mention, or, beyond the values they assert, at least half of
 * what the older one talks about is missing from the newer one while the newer talks about
 * something else ("Alice owns billing" / "Bob owns notifications").
 */
export function talksAboutOtherSubject(older: RecordProfile, newer: RecordProfile): boolean {
  // The first content word is usually the subject: "Staging is reachable…" / "Grafana is reachable…".
  const [oldSubject] = older.textTerms;
  const [newSubject] = newer.textTerms;
  if (oldSubject !== undefined && newSubject !== undefined) {
    if (!newer.terms.has(oldSubject) && !older.terms.has(newSubject)) return true;
  }
  const oldWords = older.values.plainTerms;
  if (oldWords.size === 0) return false;
  let missing = 0;
  for (const word of oldWords) if (!newer.terms.has(word)) missing += 1;
  let added = 0;
  for (const word of newer.values.plainTerms) if (!older.terms.has(word)) added += 1;
  return missing / oldWords.size >= 0.5 && added > 0;
}
