import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, createTestDatabase, type McpTestClient, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';

interface Rec {
  id: string;
  workspace: string;
  content: string;
  status: string;
  score?: number;
  source: string;
  source_id: string | null;
  superseded_by: string | null;
  fact_key: string | null;
  confidence: number;
  scope: string | null;
  derived_from: string[];
  graph_relations: unknown[];
  created_at: string;
  updated_at: string;
}
type SearchResult = { result: Rec[] };

let testDb: TestDatabase;
let mcp: RunningMcp;
let client: McpTestClient;

beforeAll(async () => {
  testDb = await createTestDatabase();
  mcp = await startMcp(testDb.database);
  const { key } = await mcp.key('acme', 'backend');
  client = await connectMcp(mcp.url, key);
});

afterAll(async () => {
  await client.close();
  await mcp.close();
  await testDb.drop();
});

describe('remember', () => {
  it('stores a record with the spec fields, source agent and status unverified', async () => {
    const rec = await client.ok<Rec>('remember', {
      content: 'staging is deployed with the systemd unit app-staging',
      source_id: 'docs/deploy.md',
      source_hash: 'sha256:9f2c4e1a',
      source_revision: 'a1b2c3d',
      fact_key: 'deploy-staging',
      confidence: 0.9,
      scope: 'shared',
    });
    expect(rec.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(rec).toMatchObject({
      workspace: 'default',
      source: 'agent',
      status: 'unverified',
      confidence: 0.9,
      scope: 'shared',
      derived_from: [],
      superseded_by: null,
      graph_relations: [],
    });
    expect(new Date(rec.created_at).toISOString()).toBe(rec.created_at);
  });

  it('defaults confidence to 0.5 and creates the named workspace on first write', async () => {
    const rec = await client.ok<Rec>('remember', { content: 'the personal notes live here', workspace: 'personal' });
    expect(rec.confidence).toBe(0.5);
    expect(rec.workspace).toBe('personal');
    const found = await client.ok<SearchResult>('search', { query: 'notes', workspace: 'personal' });
    expect(found.result.map((r) => r.id)).toEqual([rec.id]);
  });

  it('answers with the same JSON as text and as structured content', async () => {
    const outcome = await client.call('remember', { content: 'text and structure agree' });
    expect(outcome.isError).toBe(false);
    expect(JSON.parse(outcome.text)).toEqual(outcome.structured);
  });

  it('stores each of many records saved at the same moment once, with its own answer, and refuses only the one refused', async () => {
    // Saved at once, records of one account share transactions; a refused one sends the others
    // of its transaction back to be stored alone.
    const ws = 'at-once';
    const refusedAt = 7;
    const contents = Array.from({ length: 20 }, (_, i) => `release note number ${i} of the batch`);
    const outcomes = await Promise.all(
      contents.map((content, i) =>
        client.call(
          'remember',
          i === refusedAt
            ? { workspace: ws, content, derived_from: [crypto.randomUUID()] }
            : { workspace: ws, content },
        ),
      ),
    );
    expect(outcomes.map((outcome) => outcome.isError)).toEqual(contents.map((_, i) => i === refusedAt));
    expect(outcomes[refusedAt]?.text).toContain('derived_from references records that do not exist');
    const stored = outcomes.filter((_, i) => i !== refusedAt).map((outcome) => outcome.structured as unknown as Rec);
    expect(stored.map((rec) => rec.content)).toEqual(contents.filter((_, i) => i !== refusedAt));
    const found = await client.ok<SearchResult>('search', { query: 'release note batch', workspace: ws, limit: 50 });
    expect(found.result.map((rec) => rec.id).sort()).toEqual(stored.map((rec) => rec.id).sort());
  });

  it.each([
    [{ content: '' }, 'content must not be empty'],
    [{ content: '   ' }, 'content must not be empty'],
    [{ content: 'x'.repeat(20_001) }, 'content is too long'],
    [{ content: 'a', source_hash: 'sha256:1' }, 'source_hash requires source_id'],
    [{ content: 'a', confidence: 1.5 }, 'confidence must be between 0 and 1'],
    [{ content: 'a', confidence: -0.1 }, 'confidence must be between 0 and 1'],
    [{ content: 'a', derived_from: Array.from({ length: 51 }, () => crypto.randomUUID()) }, 'at most 50'],
    [{ content: 'a', derived_from: [crypto.randomUUID()] }, 'derived_from references records that do not exist'],
    [{ content: 'a', derived_from: ['not-an-id'] }, 'derived_from references records that do not exist'],
    [{ content: 'nul \u0000 byte' }, 'content must not contain NUL characters'],
    [{ content: 'a', fact_key: 'k'.repeat(201) }, 'fact_key is too long'],
  ])('rejects bad input %# with a clear error and stores nothing', async (args, message) => {
    const before = await client.ok<SearchResult>('search', { query: '', workspace: 'default', limit: 50 });
    const outcome = await client.call('remember', args);
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain(message);
    const after = await client.ok<SearchResult>('search', { query: '', workspace: 'default', limit: 50 });
    expect(after.result.length).toBe(before.result.length);
  });

  it('rejects a confidence of the wrong type', async () => {
    const outcome = await client.call('remember', { content: 'typed', confidence: 'high' });
    expect(outcome.isError).toBe(true);
  });
});

describe('search', () => {
  let ws: string;
  beforeAll(async () => {
    ws = 'search-tests';
    for (const content of [
      'staging is deployed with the systemd unit app-staging',
      'prod is deployed through the release pipeline',
      'the database is postgres 15',
      'lunch is at noon',
    ]) {
      await client.ok('remember', { content, workspace: ws, source_id: 'docs/notes.md' });
    }
  });

  it('scores by the number of matched words and orders by score', async () => {
    const found = await client.ok<SearchResult>('search', { query: 'staging deployed', workspace: ws });
    expect(found.result[0]?.content).toContain('app-staging');
    expect(found.result[0]?.score).toBe(2);
    expect(found.result[1]?.content).toContain('prod');
    expect(found.result[1]?.score).toBe(1);
    expect(found.result).toHaveLength(2);
  });

  it('matches words in the source field', async () => {
    const found = await client.ok<SearchResult>('search', { query: 'notes.md', workspace: ws, limit: 50 });
    expect(found.result.length).toBe(4);
  });

  it('orders equal scores by last update, newest first', async () => {
    const found = await client.ok<SearchResult>('search', { query: 'deployed', workspace: ws });
    expect(found.result.map((r) => r.score)).toEqual([1, 1]);
    expect(found.result[0]?.content).toContain('prod');
  });

  it('returns the latest records for an empty query', async () => {
    const found = await client.ok<SearchResult>('search', { query: '', workspace: ws });
    expect(found.result[0]?.content).toBe('lunch is at noon');
    expect(found.result).toHaveLength(4);
  });

  it('clamps limit to 1..50', async () => {
    const zero = await client.ok<SearchResult>('search', { query: '', workspace: ws, limit: 0 });
    expect(zero.result).toHaveLength(1);
    const many = await client.ok<SearchResult>('search', { query: '', workspace: ws, limit: 500 });
    expect(many.result).toHaveLength(4);
    const negative = await client.ok<SearchResult>('search', { query: '', workspace: ws, limit: -3 });
    expect(negative.result).toHaveLength(1);
  });

  it('filters by the scope label', async () => {
    await client.ok('remember', { content: 'scoped fact about shared cache', workspace: ws, scope: 'shared' });
    await client.ok('remember', { content: 'scoped fact about private cache', workspace: ws, scope: 'private' });
    const found = await client.ok<SearchResult>('search', { query: 'cache', workspace: ws, scope: 'private' });
    expect(found.result.map((r) => r.content)).toEqual(['scoped fact about private cache']);
  });

  it("says a workspace never written is not active, and does not create it", async () => {
    const outcome = await client.call('search', { query: 'x', workspace: 'never-written' });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toBe("workspace 'never-written' is not active");
    const again = await client.call('search', { query: 'x', workspace: 'never-written' });
    expect(again.text).toBe("workspace 'never-written' is not active");
  });

  it('is case-insensitive and ignores punctuation in the query', async () => {
    const found = await client.ok<SearchResult>('search', { query: 'POSTGRES?!', workspace: ws });
    expect(found.result[0]?.content).toBe('the database is postgres 15');
  });

  it('returns an empty list, not an error, when nothing matches', async () => {
    const found = await client.ok<SearchResult>('search', { query: 'zzzqqq', workspace: ws });
    expect(found.result).toEqual([]);
  });
});
