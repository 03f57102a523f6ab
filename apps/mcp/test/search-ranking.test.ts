import { beforeAll, describe, expect, it } from 'vitest';
import {
  forgetRecord,
  loadConfig,
  planById,
  rememberRecord,
  validateRememberInput,
  type Caller,
} from '@mmw/core';
import { useMcp, type SearchResult } from './fixtures.ts';

/**
 * Search ranks by score (matched query words, a word matching the start of a word of the text or
 * source), then by last update. It reads the newest rows of a workspace first and the older ones
 * level by level: these tests fill a workspace well past that window, with ties of updated_at
 * across it, forgotten and scoped records, and compare every answer with the ranking computed here.
 */
const f = useMcp('ranking-co', 'main');

const RECORDS = 1600;
const filler = ['note', 'about', 'team', 'setup', 'plan', 'review', 'check', 'later'];

interface Fixture {
  id: string;
  text: string;
  scope: string | null;
  /** Microseconds after the start of 2026. */
  updatedAt: number;
  forgotten: boolean;
}

/** A small deterministic generator, so a failure can be replayed. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

function contentOf(i: number, random: () => number): string {
  const words = [filler[i % filler.length] ?? 'note', filler[(i * 7) % filler.length] ?? 'note'];
  if (random() < 0.6) words.push('alpha');
  if (random() < 0.4) words.push('beta');
  if (random() < 0.05) words.push('gamma');
  // Three old records hold a rare word; two hold its longer form, which a prefix also matches.
  if (i === 5 || i === 60 || i === 100) words.push('zeta');
  if (i === 7 || i === 130) words.push('zetas');
  if (i % 97 === 0) words.push('omega-release');
  // Around the oldest row of the newest window (about the 400th newest), and three old ones.
  if ((i >= 1190 && i <= 1210) || i === 10 || i === 20 || i === 30) words.push('edge');
  // Two common words found together only in old records, far past the window: found in the horizon.
  if (i % 2 === 0 || (i >= 20 && i <= 30)) words.push('north');
  if (i % 2 === 1 || (i >= 20 && i <= 30)) words.push('south');
  // Three common words, one to a record, except in old records that hold two of them or all three:
  // levels the window saw none of, found in one scored read of the horizon.
  words.push(['red', 'green', 'blue'][i % 3] ?? 'red');
  if (i >= 40 && i <= 45) words.push('red', 'green');
  if (i >= 50 && i <= 52) words.push('green', 'blue');
  if (i === 35) words.push('red', 'green', 'blue');
  return `record ${i}: ${words.join(' ')}`;
}

const fixtures: Fixture[] = [];
let caller: Caller;

beforeAll(async () => {
  const key = await f.mcp.key('ranking-co', 'main');
  caller = {
    accountId: key.accountId,
    projectId: key.projectId,
    userId: key.userId,
    keyId: key.keyId,
    source: 'agent',
  };
  const random = generator(7);
  const plan = planById(loadConfig({ DATABASE_URL: 'postgres://unused' }), 'self-hosted');
  for (let i = 0; i < RECORDS; i++) {
    const scope = i % 11 === 0 ? 'private' : i % 3 === 0 ? 'shared' : null;
    const content = contentOf(i, random);
    const input = validateRememberInput({ content, workspace: 'big', ...(scope ? { scope } : {}) });
    const record = await rememberRecord(f.db.database, {
      caller,
      plan,
      input,
      idempotencyKey: undefined,
      countRecords: false,
    });
    // source is 'agent' for writes through MCP, and counts as text.
    fixtures.push({ id: record.id, text: `${content} agent`, scope, updatedAt: 0, forgotten: false });
  }
  // Updated in groups of three sharing one timestamp, so ties fall on every boundary; the
  // timestamps carry microseconds, as PostgreSQL keeps them.
  fixtures.forEach(
    (fixture, i) => (fixture.updatedAt = Math.floor(i / 3) * 1_000_000 + ((i * 7919) % 1_000_000)),
  );
  fixtures.forEach((fixture, i) => (fixture.updatedAt = (fixtures[i - (i % 3)] ?? fixture).updatedAt));
  await f.db.query(
    `update records set updated_at = a.at, created_at = a.at
       from unnest($1::uuid[], $2::bigint[]) as t(id, micros),
            lateral (select timestamptz '2026-01-01 00:00:00+00' + t.micros * interval '1 microsecond' as at) as a
      where records.id = t.id`,
    [fixtures.map((x) => x.id), fixtures.map((x) => x.updatedAt)],
  );
  for (const i of [60, 555, 554, 300]) {
    const fixture = fixtures[i];
    if (!fixture) continue;
    await forgetRecord(f.db.database.db, caller, { id: fixture.id });
    fixture.forgotten = true;
  }
}, 120_000);

function expected(query: string, limit: number, scope: string | null) {
  const words = [
    ...new Set(
      query
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
    ),
  ];
  return fixtures
    .filter((x) => !x.forgotten && (scope === null || x.scope === scope))
    .map((x) => {
      const tokens = x.text
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean);
      const score = words.filter((word) => tokens.some((token) => token.startsWith(word))).length;
      return { id: x.id, score, updatedAt: x.updatedAt };
    })
    .filter((x) => x.score > 0)
    .sort((a, b) => b.score - a.score || b.updatedAt - a.updatedAt || (a.id < b.id ? 1 : -1))
    .slice(0, limit)
    .map((x) => `${x.id}:${x.score}`);
}

describe('search ranking in a workspace larger than the newest window', () => {
  it.each([
    ['alpha', 10, null],
    ['alpha', 50, null],
    ['alpha beta', 50, null],
    ['alpha beta gamma', 10, null],
    ['alpha beta gamma', 50, null],
    ['zeta', 10, null],
    ['zeta alpha', 10, null],
    ['gamma zeta beta', 50, null],
    ['alp bet', 20, null],
    ['omega release alpha', 10, null],
    ['alpha beta gamma zeta', 50, 'shared'],
    ['alpha gamma', 10, 'private'],
    ['zeta beta', 5, 'private'],
    ['record 42', 10, null],
    ['edge', 10, null],
    ['edge', 30, null],
    ['edge alpha', 12, null],
    ['edge beta', 30, 'shared'],
    ['north south', 10, null],
    ['south north alpha', 12, null],
    ['north south alpha beta', 10, null],
    // Levels of common words the window saw none of, in the horizon.
    ['red green blue', 12, null],
    ['blue red green', 20, 'shared'],
  ] as const)('ranks %s (limit %i, scope %s) by score, then last update', async (query, limit, scope) => {
    const found = await f.client.ok<SearchResult>('search', { query, limit, workspace: 'big', scope });
    expect(found.result.map((r) => `${r.id}:${r.score}`)).toEqual(expected(query, limit, scope));
  });
});

describe('expanded search', () => {
  it.each([
    ['give me an overview', 20],
    ['what is the setup', 50],
  ] as const)(
    'ranks the expanded query %s (limit %i) by score over the added words, past the newest window',
    async (query, limit) => {
      const found = await f.client.ok<SearchResult & { expanded_terms?: string[] }>('search', {
        query,
        limit,
        workspace: 'big',
      });
      expect(found.expanded_terms?.length).toBeGreaterThan(0);
      const words = `${query} ${(found.expanded_terms ?? []).join(' ')}`;
      expect(found.result.map((r) => `${r.id}:${r.score}`)).toEqual(expected(words, limit, null));
    },
  );

  it('counts an added word found in fact_key and another found in the text as two matched words', async () => {
    const ws = 'expanded-score';
    const both = await f.client.ok<{ id: string }>('remember', {
      workspace: ws,
      content: 'Runbook for the cluster upgrade',
      fact_key: 'kube-runbook',
    });
    const textOnly = await f.client.ok<{ id: string }>('remember', {
      workspace: ws,
      content: 'The cluster has three nodes',
    });
    const found = await f.client.ok<SearchResult & { expanded_terms?: string[] }>('search', {
      query: 'k8s',
      workspace: ws,
    });
    expect(found.expanded_terms).toEqual(expect.arrayContaining(['kube', 'cluster']));
    expect(found.result.map((r) => [r.id, r.score])).toEqual([
      [both.id, 2],
      [textOnly.id, 1],
    ]);
  });
});
