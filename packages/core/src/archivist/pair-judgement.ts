import type { ProposedMark, RelationKind } from './archivist-types.ts';
import { findContradiction } from './contradiction.ts';
import type { RecordProfile } from './record-profile.ts';
import { namesOtherEnvironment, talksAboutOtherSubject } from './same-topic.ts';
import { boilerplateStems } from './stopwords.ts';

/** Thresholds of the built-in analyser, tuned on test/archivist/fixtures/pairs.json. */
export interface AnalyserTuning {
  /** Minimum weight of a plain relates_to link. */
  relatesThreshold: number;
  /** Similarity above which two records without a shared fact_key are on the same topic. */
  topicThreshold: number;
  /** Similarity a fix needs with a problem report when no issue number ties them together. */
  fixThreshold: number;
  /** At most this many relates_to links per record; the strongest win. */
  maxRelated: number;
}

export const defaultTuning: AnalyserTuning = {
  relatesThreshold: 0.25,
  topicThreshold: 0.45,
  fixThreshold: 0.3,
  maxRelated: 8,
};

export interface Judgement {
  relation: RelationKind;
  weight: number;
  reason: string;
  mark: Omit<ProposedMark, 'recordId'> | null;
}

/** How the new record relates to one older candidate, or null when it does not. */
export function judgePair(
  next: RecordProfile,
  prior: RecordProfile,
  similarity: number,
  tuning: AnalyserTuning,
): Judgement | null {
  const sameKey = next.factKey !== null && next.factKey === prior.factKey;
  const sameSource = next.record.sourceId !== null && next.record.sourceId === prior.record.sourceId;
  return (
    judgeFix(next, prior, similarity, tuning) ??
    judgeSameTopic(next, prior, similarity, sameKey, sameSource, tuning) ??
    judgeRelated(next, prior, similarity, sameKey, sameSource, tuning)
  );
}

function judgeFix(
  next: RecordProfile,
  prior: RecordProfile,
  similarity: number,
  tuning: AnalyserTuning,
): Judgement | null {
  if (!next.hasFixLanguage) return null;
  // A record that reports a fix and no problem is not an open issue.
  if (prior.hasFixLanguage && !prior.reportsProblem) return null;
  const shared = [...next.issueRefs].filter((ref) => prior.issueRefs.has(ref));
  if (shared.length > 0) {
    return fix(0.8 + 0.2 * similarity, `fixes the issue ${shared.map(formatRef).join(', ')}`);
  }
  // Both name issues, but different ones: the text may be alike, the problems are not.
  if (next.issueRefs.size > 0 && prior.issueRefs.size > 0) return null;
  // Without an issue number, the older record must plainly report a problem, not discuss a fix.
  if (!prior.reportsProblem || prior.hasFixLanguage) return null;
  if (similarity < tuning.fixThreshold) return null;
  return fix(0.4 + 0.6 * similarity, 'fix language in the new record for a problem the older one reports');
}

function judgeSameTopic(
  next: RecordProfile,
  prior: RecordProfile,
  similarity: number,
  sameKey: boolean,
  sameSource: boolean,
  tuning: AnalyserTuning,
): Judgement | null {
  // Two fact_keys that differ are the author's word that these are different topics.
  if (!sameKey && next.factKey !== null && prior.factKey !== null) return null;
  if (prior.record.createdAt.getTime() > next.record.createdAt.getTime()) return null;
  const threshold = sameSource ? tuning.topicThreshold * 0.75 : tuning.topicThreshold;
  if (!sameKey && similarity < threshold) return null;

  const topic = sameKey ? `same fact_key ${prior.factKey ?? ''}` : 'same topic';
  const strength = sameKey ? Math.max(similarity, 0.8) : similarity;
  if (mayBeNewerVersion(next, prior, sameKey)) {
    const contradiction = findContradiction(prior, next);
    if (contradiction !== null) {
      return {
        relation: 'supersedes',
        weight: 0.5 + 0.5 * strength,
        reason: `newer version (${topic}): ${contradiction}`,
        mark: { mark: 'stale', reason: `outdated by record ${next.record.id}: ${contradiction}` },
      };
    }
  }
  if (addsDetail(prior, next)) {
    return {
      relation: 'relates_to',
      weight: Math.max(0.6, strength),
      reason: `adds detail (${topic})`,
      mark: { mark: 'refined', reason: `refined by record ${next.record.id}, which adds detail` },
    };
  }
  return null;
}

function mayBeNewerVersion(next: RecordProfile, prior: RecordProfile, sameKey: boolean): boolean {
  // Two reports of problems are two events (two incidents), not two versions of one fact.
  if (next.reportsProblem && prior.reportsProblem) return false;
  if (sameKey) return true;
  return !namesOtherEnvironment(prior, next) && !talksAboutOtherSubject(prior, next);
}

function judgeRelated(
  next: RecordProfile,
  prior: RecordProfile,
  similarity: number,
  sameKey: boolean,
  sameSource: boolean,
  tuning: AnalyserTuning,
): Judgement | null {
  const weight = similarity + (sameKey ? 0.2 : 0) + (sameSource ? 0.1 : 0);
  if (weight < tuning.relatesThreshold) return null;
  const shared = [...next.terms].filter((term) => prior.terms.has(term));
  // One shared word ("staging", "expire") is a coincidence more often than a link, and so are the
  // words every memory uses ("the user prefers…").
  const telling = shared.filter((term) => !boilerplateStems.has(term));
  if (telling.length < 2 && !sameKey && !sameSource) return null;
  const because = [
    sameKey ? 'same fact_key' : null,
    sameSource ? 'same source' : null,
    shared.length > 0 ? `shared terms: ${shared.slice(0, 5).join(', ')}` : null,
  ].filter((part) => part !== null);
  return { relation: 'relates_to', weight, reason: because.join('; '), mark: null };
}

/**
 * The newer record repeats what the older one says, in the same order, and says clearly more:
 * "backups run nightly" → "backups run nightly at 02:00 UTC and are kept for 30 days".
 */
function addsDetail(prior: RecordProfile, next: RecordProfile): boolean {
  const old = prior.textTerms;
  if (old.length === 0 || next.terms.size < prior.terms.size + 3) return false;
  return commonSubsequence(old, next.textTerms) >= 0.85 * old.length;
}

function commonSubsequence(a: readonly string[], b: readonly string[]): number {
  let row = new Array<number>(b.length + 1).fill(0);
  for (const left of a) {
    const nextRow = new Array<number>(b.length + 1).fill(0);
    b.forEach((right, j) => {
      nextRow[j + 1] = left === right ? (row[j] ?? 0) + 1 : Math.max(row[j + 1] ?? 0, nextRow[j] ?? 0);
    });
    row = nextRow;
  }
  return row[b.length] ?? 0;
}

function fix(weight: number, reason: string): Judgement {
  return { relation: 'fixes_issue', weight, reason, mark: null };
}

function formatRef(ref: string): string {
  return /^\d+$/.test(ref) ? `#${ref}` : ref;
}
