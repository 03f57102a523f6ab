import { afterAll, beforeAll } from 'vitest';
import { connectMcp, createTestDatabase, type McpTestClient, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from './start-mcp.ts';

export interface Rec {
  id: string;
  workspace: string;
  content: string;
  status: 'unverified' | 'stale' | 'conflict';
  score?: number;
  source: string;
  source_id: string | null;
  source_hash: string | null;
  superseded_by: string | null;
  fact_key: string | null;
  confidence: number;
  scope: string | null;
  derived_from: string[];
  graph_relations: Array<{ relation: string; direction: string; weight: number; target_id: string; preview: string }>;
  created_at: string;
  updated_at: string;
}
export type SearchResult = { result: Rec[] };

export interface McpFixture {
  db: TestDatabase;
  mcp: RunningMcp;
  client: McpTestClient;
  key: string;
}

/** One database, one ingress and one connected client for a test file. */
export function useMcp(account = 'acme', project = 'backend'): McpFixture {
  const fixture = {} as McpFixture;
  beforeAll(async () => {
    fixture.db = await createTestDatabase();
    fixture.mcp = await startMcp(fixture.db.database);
    fixture.key = (await fixture.mcp.key(account, project)).key;
    fixture.client = await connectMcp(fixture.mcp.url, fixture.key);
  });
  afterAll(async () => {
    await fixture.client.close();
    await fixture.mcp.close();
    await fixture.db.drop();
  });
  return fixture;
}
