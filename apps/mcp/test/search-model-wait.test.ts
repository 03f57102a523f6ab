import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  completion,
  connectMcp,
  createTestDatabase,
  startModelStub,
  type McpTestClient,
  type ModelStub,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';
import type { Rec, SearchResult } from './fixtures.ts';

// A pool of two connections, and a model that answers query expansion only after its timeout.
let testDb: TestDatabase;
let stub: ModelStub;
let mcp: RunningMcp;
let client: McpTestClient;

beforeAll(async () => {
  testDb = await createTestDatabase(2);
  stub = await startModelStub();
  mcp = await startMcp(testDb.database, {
    env: { MMW_MODEL_URL: stub.url, MMW_MODEL_API_KEY: 'k', MMW_MODEL: 'stub-model', MMW_MODEL_TIMEOUT_MS: '4000' },
  });
  client = await connectMcp(mcp.url, (await mcp.key('slow-model', 'main')).key);
});
afterAll(async () => {
  await client.close();
  await mcp.close();
  await stub.close();
  await testDb.drop();
});

const isExpansion = (body: unknown) => JSON.stringify(body).includes('You expand search queries');

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('search while the model is slow', () => {
  it('holds no database connection while it waits for query expansion', async () => {
    stub.reply((request) => (isExpansion(request.body) ? 'hang' : completion('{"relations":[],"marks":[]}')));
    await client.ok<Rec>('remember', { workspace: 'wait', content: 'the billing service runs on port 7000' });
    const settled: string[] = [];
    // Two searches that match nothing: each asks the model to expand it, and the model does not answer.
    const searches = [1, 2].map((n) =>
      client
        .ok<SearchResult>('search', { query: `qqzzx${n}`, workspace: 'wait' })
        .then((found) => {
          settled.push(`search ${n}`);
          return found;
        }),
    );
    await until(() => stub.requests.filter((request) => isExpansion(request.body)).length >= 2);
    // With both connections held by the waiting searches, this write would wait for the model too.
    await client.ok<Rec>('remember', { workspace: 'elsewhere', content: 'an unrelated write' });
    settled.push('remember');
    const found = await Promise.all(searches);
    expect(settled[0]).toBe('remember');
    expect(found.every((answer) => answer.result.length === 0)).toBe(true);
  });
});
