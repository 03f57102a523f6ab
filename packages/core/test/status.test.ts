import { describe, expect, it } from 'vitest';
import { inheritedStatus, mostAlarming, ownStatus, type RecordStatus } from '../src/memory/status.ts';

describe('status precedence', () => {
  it('puts conflict over stale over unverified', () => {
    expect(mostAlarming([])).toBe('unverified');
    expect(mostAlarming(['unverified', 'stale'])).toBe('stale');
    expect(mostAlarming(['stale', 'conflict', 'unverified'])).toBe('conflict');
  });

  it('derives a record’s own status', () => {
    const facts = { hasConflictingSibling: false, sourceHash: 'h1', archivistMark: null };
    expect(ownStatus(facts, null)).toBe('unverified');
    expect(ownStatus(facts, 'h1')).toBe('unverified');
    expect(ownStatus(facts, 'h2')).toBe('stale');
    expect(ownStatus({ ...facts, sourceHash: null }, 'h2')).toBe('unverified');
    expect(ownStatus({ ...facts, archivistMark: 'stale' }, null)).toBe('stale');
    expect(ownStatus({ ...facts, archivistMark: 'refined' }, null)).toBe('unverified');
    expect(ownStatus({ ...facts, hasConflictingSibling: true }, 'h2')).toBe('conflict');
  });
});

describe('inheritance through derived_from', () => {
  const chain = (statuses: RecordStatus[]) => {
    // s0 <- s1 <- s2 ... : s(i+1) summarizes s(i)
    const own = new Map(statuses.map((status, i) => [`s${i}`, status]));
    const derivedFrom = new Map(statuses.map((_, i) => [`s${i}`, i === 0 ? [] : [`s${i - 1}`]]));
    return { own, derivedFrom };
  };

  it('inherits up to three levels and no further', () => {
    const { own, derivedFrom } = chain(['stale', 'unverified', 'unverified', 'unverified', 'unverified']);
    expect(inheritedStatus('s1', own, derivedFrom)).toBe('stale');
    expect(inheritedStatus('s3', own, derivedFrom)).toBe('stale');
    expect(inheritedStatus('s4', own, derivedFrom)).toBe('unverified');
  });

  it('takes the most alarming of several sources and survives cycles', () => {
    const own = new Map<string, RecordStatus>([
      ['sum', 'unverified'],
      ['a', 'stale'],
      ['b', 'conflict'],
    ]);
    const derivedFrom = new Map([
      ['sum', ['a', 'b']],
      ['a', ['sum']],
      ['b', []],
    ]);
    expect(inheritedStatus('sum', own, derivedFrom)).toBe('conflict');
    expect(inheritedStatus('a', own, derivedFrom)).toBe('conflict');
  });

  it('ignores sources it cannot see', () => {
    const own = new Map<string, RecordStatus>([['sum', 'unverified']]);
    expect(inheritedStatus('sum', own, new Map([['sum', ['hidden']]]))).toBe('unverified');
  });
});
