/** Record statuses, most alarming first. There is no "verified": a hash is provenance, not proof. */
export type RecordStatus = 'conflict' | 'stale' | 'unverified';

const rank: Record<RecordStatus, number> = { conflict: 2, stale: 1, unverified: 0 };

/** Conflict over stale over unverified. */
export function mostAlarming(statuses: Iterable<RecordStatus>): RecordStatus {
  let worst: RecordStatus = 'unverified';
  for (const status of statuses) if (rank[status] > rank[worst]) worst = status;
  return worst;
}

export interface OwnStatusFacts {
  hasConflictingSibling: boolean;
  sourceHash: string | null;
  archivistMark: 'stale' | 'refined' | null;
}

/** A record's own status, before inheritance through derived_from. */
export function ownStatus(facts: OwnStatusFacts, currentSourceHash: string | null): RecordStatus {
  if (facts.hasConflictingSibling) return 'conflict';
  if (facts.archivistMark === 'stale') return 'stale';
  if (currentSourceHash !== null && facts.sourceHash !== null && facts.sourceHash !== currentSourceHash) {
    return 'stale';
  }
  return 'unverified';
}

export const INHERITANCE_DEPTH = 3;

/**
 * A summary inherits the statuses of its sources through derived_from, up to three levels deep.
 * `own` holds every record's own status; `derivedFrom` its sources.
 */
export function inheritedStatus(
  id: string,
  own: ReadonlyMap<string, RecordStatus>,
  derivedFrom: ReadonlyMap<string, readonly string[]>,
): RecordStatus {
  const seen = new Set<string>([id]);
  const statuses: RecordStatus[] = [own.get(id) ?? 'unverified'];
  let frontier = [id];
  for (let depth = 0; depth < INHERITANCE_DEPTH && frontier.length > 0; depth++) {
    const next: string[] = [];
    for (const current of frontier) {
      for (const source of derivedFrom.get(current) ?? []) {
        if (seen.has(source)) continue;
        seen.add(source);
        const status = own.get(source);
        if (status !== undefined) statuses.push(status);
        next.push(source);
      }
    }
    frontier = next;
  }
  return mostAlarming(statuses);
}
