import type { ArchivistRecord } from './archivist-types.ts';
import { hasFixLanguage, issueRefs, reportsProblem } from './language-cues.ts';
import { factKeyWords, stem, terms } from './text.ts';
import { valueProfile, type ValueProfile } from './values.ts';

/** Everything the built-in analyser needs to know about one record, computed once. */
export interface RecordProfile {
  record: ArchivistRecord;
  text: string;
  /** Stemmed content words of the text, in order. */
  textTerms: string[];
  /** Stemmed content words of the text and the fact_key, with repeats (for TF-IDF). */
  termList: string[];
  terms: Set<string>;
  values: ValueProfile;
  factKey: string | null;
  reportsProblem: boolean;
  hasFixLanguage: boolean;
  issueRefs: Set<string>;
}

/**
 * How much of a record the archivist reads: enough for what a record is about, and a bound on the
 * work each later record of the workspace repeats against it.
 */
export const PROFILE_LIMIT = 4_000;

export function profileRecord(record: ArchivistRecord): RecordProfile {
  const text = record.content.slice(0, PROFILE_LIMIT);
  const textTerms = terms(text);
  const termList = [...textTerms, ...factKeyWords(record.factKey).map(stem)];
  return {
    record,
    text,
    textTerms,
    termList,
    terms: new Set(termList),
    values: valueProfile(text),
    factKey: normalizeKey(record.factKey),
    reportsProblem: reportsProblem(text),
    hasFixLanguage: hasFixLanguage(text),
    issueRefs: issueRefs(text),
  };
}

function normalizeKey(key: string | null): string | null {
  const trimmed = key?.trim().toLowerCase() ?? '';
  return trimmed === '' ? null : trimmed;
}
