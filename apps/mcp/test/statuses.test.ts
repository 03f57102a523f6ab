import { describe, expect, it } from 'vitest';
import { useMcp, type Rec, type SearchResult } from './fixtures.ts';

const f = useMcp();

async function remember(args: Record<string, unknown>): Promise<Rec> {
  return f.client.ok<Rec>('remember', args);
}
async function search(args: Record<string, unknown>): Promise<Rec[]> {
  return (await f.client.ok<SearchResult>('search', args)).result;
}

describe('freshness: current_source_hash and exclude_stale', () => {
  it('marks records whose source_hash differs as stale, and exclude_stale drops them', async () => {
    const ws = 'fresh';
    const old = await remember({
      workspace: ws,
      content: 'staging is deployed with the systemd unit app-staging',
      source_id: 'docs/deploy.md',
      source_hash: 'sha256:old',
    });
    const same = await remember({
      workspace: ws,
      content: 'staging logs go to journald',
      source_id: 'docs/deploy.md',
      source_hash: 'sha256:new',
    });
    const plain = await search({ query: 'staging', workspace: ws });
    expect(plain.every((r) => r.status === 'unverified')).toBe(true);

    const checked = await search({ query: 'staging', workspace: ws, current_source_hash: 'sha256:new' });
    expect(checked.find((r) => r.id === old.id)?.status).toBe('stale');
    expect(checked.find((r) => r.id === same.id)?.status).toBe('unverified');

    const fresh = await search({ query: 'staging', workspace: ws, current_source_hash: 'sha256:new', exclude_stale: true });
    expect(fresh.map((r) => r.id)).toEqual([same.id]);
  });
});

describe('fact_key versions and conflicts', () => {
  it('keeps every version, points old ones to the newest, ranks the newest first, and marks the discrepancy as conflict', async () => {
    const ws = 'versions';
    const v1 = await remember({ workspace: ws, content: 'the api timeout is 30 seconds', fact_key: 'api-timeout' });
    const v2 = await remember({ workspace: ws, content: 'the api timeout is 60 seconds', fact_key: 'api-timeout' });
    const found = await search({ query: 'api timeout', workspace: ws });
    expect(found.map((r) => r.id)).toEqual([v2.id, v1.id]);
    expect(found[1]?.superseded_by).toBe(v2.id);
    expect(found[0]?.superseded_by).toBeNull();
    expect(found.map((r) => r.status)).toEqual(['conflict', 'conflict']);
  });

  it('leaves one newest version when versions of a fact_key are saved at the same moment', async () => {
    const ws = 'versions-at-once';
    const saved = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        remember({ workspace: ws, content: `the build cache lives ${i} days`, fact_key: 'build-cache' }),
      ),
    );
    const found = await search({ query: 'build cache', workspace: ws, limit: 50 });
    expect(found.map((r) => r.id).sort()).toEqual(saved.map((r) => r.id).sort());
    const newest = found.filter((r) => r.superseded_by === null);
    expect(newest).toHaveLength(1);
    expect(found[0]?.id).toBe(newest[0]?.id);
  });

  it('does not mark siblings with the same content and hash as conflict', async () => {
    const ws = 'agree';
    await remember({ workspace: ws, content: 'we use pnpm', fact_key: 'pm', source_id: 'a', source_hash: 'h1' });
    await remember({ workspace: ws, content: 'we use pnpm', fact_key: 'pm', source_id: 'a', source_hash: 'h1' });
    const found = await search({ query: 'pnpm', workspace: ws });
    expect(found.map((r) => r.status)).toEqual(['unverified', 'unverified']);
  });

  it('marks siblings with the same content but another source hash as conflict', async () => {
    const ws = 'hashes';
    await remember({ workspace: ws, content: 'we use yarn', fact_key: 'pm', source_id: 'a', source_hash: 'h1' });
    await remember({ workspace: ws, content: 'we use yarn', fact_key: 'pm', source_id: 'a', source_hash: 'h2' });
    const found = await search({ query: 'yarn', workspace: ws });
    expect(found.map((r) => r.status)).toEqual(['conflict', 'conflict']);
  });

  it('shows conflict over stale when both apply', async () => {
    const ws = 'precedence';
    await remember({ workspace: ws, content: 'cache ttl is 5 minutes', fact_key: 'ttl', source_id: 'd', source_hash: 'h1' });
    await remember({ workspace: ws, content: 'cache ttl is 10 minutes', fact_key: 'ttl', source_id: 'd', source_hash: 'h1' });
    const found = await search({ query: 'cache ttl', workspace: ws, current_source_hash: 'h9' });
    expect(found.map((r) => r.status)).toEqual(['conflict', 'conflict']);
    const fresh = await search({ query: 'cache ttl', workspace: ws, current_source_hash: 'h9', exclude_stale: true });
    expect(fresh).toHaveLength(2);
  });

  it('does not compare records across workspaces', async () => {
    await remember({ workspace: 'ws-a', content: 'region is eu-west-1', fact_key: 'region' });
    await remember({ workspace: 'ws-b', content: 'region is us-east-1', fact_key: 'region' });
    const found = await search({ query: 'region', workspace: 'ws-a' });
    expect(found[0]?.status).toBe('unverified');
  });
});

describe('summaries inherit through derived_from', () => {
  it('shows a summary as conflict or stale when a source is, up to three levels deep', async () => {
    const ws = 'summaries';
    const a = await remember({ workspace: ws, content: 'queue is rabbitmq', fact_key: 'queue' });
    await remember({ workspace: ws, content: 'queue is nats', fact_key: 'queue' });
    const level1 = await remember({ workspace: ws, content: 'summary one of infra', derived_from: [a.id] });
    const level2 = await remember({ workspace: ws, content: 'summary two of infra', derived_from: [level1.id] });
    const level3 = await remember({ workspace: ws, content: 'summary three of infra', derived_from: [level2.id] });
    const level4 = await remember({ workspace: ws, content: 'summary four of infra', derived_from: [level3.id] });
    expect(level1.derived_from).toEqual([a.id]);
    const found = await search({ query: 'summary', workspace: ws });
    const status = new Map(found.map((r) => [r.id, r.status]));
    expect(status.get(level1.id)).toBe('conflict');
    expect(status.get(level2.id)).toBe('conflict');
    expect(status.get(level3.id)).toBe('conflict');
    expect(status.get(level4.id)).toBe('unverified');
  });

  it('inherits stale from a source whose hash differs', async () => {
    const ws = 'stale-summaries';
    const src = await remember({ workspace: ws, content: 'port is 8080', source_id: 'cfg', source_hash: 'v1' });
    const summary = await remember({ workspace: ws, content: 'summary of ports', derived_from: [src.id] });
    const found = await search({ query: 'summary', workspace: ws, current_source_hash: 'v2' });
    expect(found.find((r) => r.id === summary.id)?.status).toBe('stale');
  });
});
