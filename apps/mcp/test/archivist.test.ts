import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectMcp,
  createTestDatabase,
  drainJobs,
  type McpTestClient,
  type TestDatabase,
} from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';
import type { Rec, SearchResult } from './fixtures.ts';

let testDb: TestDatabase;
let mcp: RunningMcp;
let client: McpTestClient;

beforeAll(async () => {
  testDb = await createTestDatabase();
  mcp = await startMcp(testDb.database, { worker: true });
  client = await connectMcp(mcp.url, (await mcp.key('archivist-co', 'main')).key);
});
afterAll(async () => {
  await client.close();
  await mcp.close();
  await testDb.drop();
});

describe('the archivist', () => {
  it('enqueues a job with the record, carrying ids only', async () => {
    const rec = await client.ok<Rec>('remember', { content: 'the payments api token is rotated weekly', workspace: 'jobs' });
    await drainJobs(testDb);
    const jobs = await testDb.query<{ data: unknown }>("select data from pgboss.job where name = 'archivist'");
    const payloads = jobs.map((job) => JSON.stringify(job.data));
    expect(payloads.some((p) => p.includes(rec.id))).toBe(true);
    expect(payloads.join()).not.toContain('rotated');
  });

  it('links a new record to related recent ones, shown in search with direction, weight and preview', async () => {
    const ws = 'graph';
    const incident = await client.ok<Rec>('remember', {
      workspace: ws,
      content: 'Issue #412: checkout requests time out when the payment gateway is slow',
    });
    await drainJobs(testDb);
    const fix = await client.ok<Rec>('remember', {
      workspace: ws,
      content: 'Fixed #412: checkout now retries the payment gateway with a 2 second timeout',
    });
    await drainJobs(testDb);
    const found = await client.ok<SearchResult>('search', { query: 'checkout gateway', workspace: ws });
    const fixView = found.result.find((r) => r.id === fix.id);
    const incidentView = found.result.find((r) => r.id === incident.id);
    expect(fixView?.graph_relations).toContainEqual(
      expect.objectContaining({ relation: 'fixes_issue', direction: 'outgoing', target_id: incident.id }),
    );
    expect(incidentView?.graph_relations).toContainEqual(
      expect.objectContaining({ relation: 'fixes_issue', direction: 'incoming', target_id: fix.id }),
    );
    const edge = fixView?.graph_relations.find((g) => g.target_id === incident.id);
    expect(edge?.weight).toBeGreaterThan(0);
    expect(edge?.weight).toBeLessThanOrEqual(1);
    expect(edge?.preview).toBe(incident.content.slice(0, 120));
  });

  it('marks an outdated record stale, and search shows it stale', async () => {
    const ws = 'outdated';
    const old = await client.ok<Rec>('remember', { workspace: ws, content: 'The primary database host is db-primary-1.internal' });
    await drainJobs(testDb);
    await client.ok<Rec>('remember', { workspace: ws, content: 'The primary database host is now db-primary-3.internal' });
    await drainJobs(testDb);
    const found = await client.ok<SearchResult>('search', { query: 'primary database host', workspace: ws });
    expect(found.result.find((r) => r.id === old.id)?.status).toBe('stale');
  });

  it('drops the links of a forgotten record from the graph', async () => {
    const ws = 'forgotten-links';
    const a = await client.ok<Rec>('remember', { workspace: ws, content: 'Issue #77: login page crashes on Safari' });
    await drainJobs(testDb);
    const b = await client.ok<Rec>('remember', { workspace: ws, content: 'Fixed #77: the login page no longer crashes on Safari' });
    await drainJobs(testDb);
    await client.ok('forget', { id: a.id });
    const found = await client.ok<SearchResult>('search', { query: 'login safari', workspace: ws });
    expect(found.result.find((r) => r.id === b.id)?.graph_relations).toEqual([]);
  });
});

describe('query expansion', () => {
  it('expands a query that finds nothing, also over fact_key, and says which terms it added', async () => {
    const ws = 'expansion';
    await client.ok('remember', { workspace: ws, content: 'The production database runs PostgreSQL 15 on a dedicated host' });
    await client.ok('remember', { workspace: ws, content: 'Lunch is at noon', fact_key: 'kubernetes-cluster' });
    // "db" means database: the first pass finds it by the synonym table, with nothing to expand.
    const db = await client.ok<SearchResult & { expanded_terms?: string[] }>('search', { query: 'db', workspace: ws });
    expect(db.result.map((r) => r.content)).toContain('The production database runs PostgreSQL 15 on a dedicated host');
    expect(db.expanded_terms).toBeUndefined();
    // Nothing holds k8s in its text: expansion adds kubernetes and finds it in a fact_key.
    const k8s = await client.ok<SearchResult & { expanded_terms?: string[] }>('search', { query: 'k8s', workspace: ws });
    expect(k8s.result.map((r) => r.fact_key)).toContain('kubernetes-cluster');
    expect(k8s.expanded_terms).toEqual(expect.arrayContaining(['kubernetes']));
  });

  it('does not expand a query that matches', async () => {
    const found = await client.ok<SearchResult & { expanded_terms?: string[] }>('search', { query: 'production', workspace: 'expansion' });
    expect(found.result).toHaveLength(1);
    expect(found.expanded_terms).toBeUndefined();
  });
});
