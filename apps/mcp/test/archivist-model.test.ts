import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completion,
  connectMcp,
  createTestDatabase,
  drainJobs,
  startModelStub,
  type McpTestClient,
  type ModelStub,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';
import type { Rec, SearchResult } from './fixtures.ts';

let testDb: TestDatabase;
let stub: ModelStub;
let mcp: RunningMcp;
let client: McpTestClient;

beforeAll(async () => {
  testDb = await createTestDatabase();
  stub = await startModelStub();
  mcp = await startMcp(testDb.database, {
    worker: true,
    env: { MMW_MODEL_URL: stub.url, MMW_MODEL_API_KEY: 'test-model-key', MMW_MODEL: 'stub-model', MMW_MODEL_TIMEOUT_MS: '500' },
  });
  client = await connectMcp(mcp.url, (await mcp.key('model-co', 'main')).key);
});
afterAll(async () => {
  await client.close();
  await mcp.close();
  await stub.close();
  await testDb.drop();
});

describe('the archivist with a model', () => {
  it("stores the model's relations, sending it records already redacted and framed as data", async () => {
    stub.reply(() =>
      completion(JSON.stringify({ relations: [{ to: 'C1', relation: 'relates_to', weight: 0.66, reason: 'same service' }], marks: [] })),
    );
    const first = await client.ok<Rec>('remember', { workspace: 'm', content: 'the billing service runs on port 7000' });
    await drainJobs(testDb);
    const second = await client.ok<Rec>('remember', { workspace: 'm', content: 'billing alerts go to the #billing channel' });
    await drainJobs(testDb);
    const found = await client.ok<SearchResult>('search', { query: 'billing', workspace: 'm' });
    const edge = found.result.find((r) => r.id === second.id)?.graph_relations[0];
    expect(edge).toMatchObject({ relation: 'relates_to', direction: 'outgoing', weight: 0.66, target_id: first.id });
    const sent = JSON.stringify(stub.requests.at(-1)?.body);
    expect(sent).not.toContain(first.id);
    expect(stub.requests.at(-1)?.headers.authorization).toBe('Bearer test-model-key');
  });

  it('falls back to the built-in analyser and counts it when the model fails or answers garbage', async () => {
    const before = mcp.runtime.modelFallbacks();
    stub.reply(() => ({ status: 200, body: 'this is not json' }));
    const issue = await client.ok<Rec>('remember', { workspace: 'f', content: 'Issue #88: exports fail for files over 2 GB' });
    await drainJobs(testDb);
    stub.reply(() => ({ status: 500, body: '{"error":"down"}' }));
    const fix = await client.ok<Rec>('remember', { workspace: 'f', content: 'Fixed #88: exports over 2 GB now stream in chunks' });
    await drainJobs(testDb);
    expect(mcp.runtime.modelFallbacks()).toBeGreaterThan(before);
    const found = await client.ok<SearchResult>('search', { query: 'exports', workspace: 'f' });
    expect(found.result.find((r) => r.id === fix.id)?.graph_relations).toContainEqual(
      expect.objectContaining({ relation: 'fixes_issue', target_id: issue.id }),
    );
  });

  it('ignores relations to records the model was not given', async () => {
    stub.reply(() =>
      completion(JSON.stringify({ relations: [{ to: 'C9', relation: 'supersedes', weight: 1, reason: 'x' }], marks: [{ record: 'C9', mark: 'stale', reason: 'x' }] })),
    );
    await client.ok<Rec>('remember', { workspace: 'g', content: 'garbage answers change nothing' });
    await drainJobs(testDb);
    const rec = await client.ok<Rec>('remember', { workspace: 'g', content: 'second record in g' });
    await drainJobs(testDb);
    const found = await client.ok<SearchResult>('search', { query: '', workspace: 'g' });
    expect(found.result.find((r) => r.id === rec.id)?.graph_relations).toEqual([]);
    expect(found.result.every((r) => r.status === 'unverified')).toBe(true);
  });
});
