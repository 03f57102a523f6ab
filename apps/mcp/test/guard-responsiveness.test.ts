import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionKey } from '@mmw/core';
import { createTestDatabase, startScript, type RunningProcess, type TestDatabase } from '@mmw/test-support';
import { rawToolCall } from './raw-call.ts';

/** Maximum-size records crafted against the Guard's patterns (issue 21's worst cases). */
const MAX = 20_000;
const fill = (head: string, unit: string) => (head + unit.repeat(MAX)).slice(0, MAX);
const WORST_CASES = [fill('а ', 'ж'), fill('[//]:', ' '), fill('', '漢字')];

let testDb: TestDatabase;
let server: RunningProcess;
let url = '';
let attacker = '';
let neighbour = '';

beforeAll(async () => {
  testDb = await createTestDatabase();
  server = startScript('apps/mcp/src/main.ts', [], {
    DATABASE_URL: testDb.url,
    MCP_PORT: '0',
    MMW_GUARD_THREADS: '1',
    MMW_GUARD_QUEUE: '2',
  });
  url = (await server.waitFor(/listening on (http:\S+)/))[1] ?? '';
  attacker = (await provisionKey(testDb.database.db, { account: 'crafter', project: 'main' })).key;
  neighbour = (await provisionKey(testDb.database.db, { account: 'neighbour', project: 'main' })).key;
});
afterAll(async () => {
  await server.stop();
  await testDb.drop();
});

/** The least bound, whatever a normal search takes: a stall is seconds, a busy scheduler is not. */
const FLOOR_MS = 1_500;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timedSearch(): Promise<number> {
  const started = performance.now();
  const found = await rawToolCall(url, neighbour, 'search', { query: 'staging deploy' });
  expect(found.isError).toBe(false);
  return performance.now() - started;
}

describe('the Guard off the event loop', () => {
  it('keeps answering another tenant while it checks crafted maximum-size records', async () => {
    const saved = await rawToolCall(url, neighbour, 'remember', { content: 'staging deploys run from the release branch' });
    expect(saved.isError).toBe(false);
    const normal: number[] = [];
    for (let i = 0; i < 5; i += 1) normal.push(await timedSearch());
    // The bound is relative to this machine now: ten times a normal search measured in this test,
    // so a loaded machine raises it. A stall of the event loop is seconds (9.5 to 38 s before the
    // Guard ran in a pool); the floor keeps a 20 ms search from making the bound 200 ms, which a
    // scheduler hiccup on a shared machine can pass.
    const normalMs = median(normal);
    const bound = Math.max(10 * normalMs, FLOOR_MS);

    const remembers = WORST_CASES.map((content) => rawToolCall(url, attacker, 'remember', { content }));
    const during: number[] = [];
    for (let i = 0; i < 5; i += 1) during.push(await timedSearch());
    const outcomes = await Promise.all(remembers);

    const slowest = Math.max(...during);
    expect(
      slowest,
      `searches during the guarding took ${during.map(Math.round).join(', ')} ms; a normal one ${Math.round(normalMs)} ms`,
    ).toBeLessThan(bound);
    for (const outcome of outcomes) {
      // Each crafted record is stored, refused by the Guard, or turned away as an overload: never a hang.
      if (outcome.status === 503) expect(outcome.headers.get('retry-after')).toMatch(/^\d+$/);
      else if (outcome.isError) expect(outcome.text).toMatch(/^Memory rejected by Security Guard: /);
    }
  }, 180_000);

  it('answers a full guard pool with 503 and Retry-After, and stores nothing for that call', async () => {
    const note = 'The billing service stays on PostgreSQL; the backfill runs overnight in batches. ';
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        rawToolCall(url, attacker, 'remember', { content: `burst-${i} ${note.repeat(200)}`.slice(0, MAX) }),
      ),
    );
    const turnedAway = burst.filter((outcome) => outcome.status === 503);
    expect(turnedAway.length).toBeGreaterThan(0);
    for (const outcome of turnedAway) {
      expect(outcome.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(outcome.text).toBe('the Memory Guard is busy; try again shortly');
    }
    const stored = await testDb.query<{ n: string }>("select count(*)::text as n from records where content like 'burst-%'");
    expect(Number(stored[0]?.n)).toBe(burst.length - turnedAway.length);
  }, 180_000);
});
