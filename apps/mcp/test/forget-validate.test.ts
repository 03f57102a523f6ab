import { describe, expect, it } from 'vitest';
import { useMcp, type Rec, type SearchResult } from './fixtures.ts';

const f = useMcp();

describe('forget', () => {
  it('soft-deletes: the record leaves search, the row and an audit event stay', async () => {
    const rec = await f.client.ok<Rec>('remember', { content: 'the vpn password rotates monthly', workspace: 'fg' });
    const forgotten = await f.client.ok<{ id: string; forgotten: boolean }>('forget', { id: rec.id, reason: 'obsolete' });
    expect(forgotten).toMatchObject({ id: rec.id, forgotten: true });
    const found = await f.client.ok<SearchResult>('search', { query: 'vpn', workspace: 'fg' });
    expect(found.result).toEqual([]);
    const rows = {
      record: await f.db.query('select deleted_at from records where id = $1', [rec.id]),
      audit: await f.db.query('select action, data::text as data from audit_events where target_id = $1', [rec.id]),
    };
    expect(rows.record).toHaveLength(1);
    expect(rows.audit).toEqual([expect.objectContaining({ action: 'record.forgotten' })]);
    expect(JSON.stringify(rows.audit)).not.toContain('vpn');
  });

  it('says not found for unknown, malformed and already forgotten ids', async () => {
    const rec = await f.client.ok<Rec>('remember', { content: 'temporary', workspace: 'fg' });
    await f.client.ok('forget', { id: rec.id });
    for (const id of [rec.id, crypto.randomUUID(), 'nope']) {
      const outcome = await f.client.call('forget', { id });
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toContain('not found');
    }
  });

  it('lets the previous version be the newest again', async () => {
    const v1 = await f.client.ok<Rec>('remember', { content: 'mode is a', fact_key: 'mode', workspace: 'fg2' });
    const v2 = await f.client.ok<Rec>('remember', { content: 'mode is b', fact_key: 'mode', workspace: 'fg2' });
    await f.client.ok('forget', { id: v2.id });
    const found = await f.client.ok<SearchResult>('search', { query: 'mode', workspace: 'fg2' });
    expect(found.result.map((r) => [r.id, r.superseded_by, r.status])).toEqual([[v1.id, null, 'unverified']]);
  });
});

describe('validate_memory', () => {
  it('reports the records of a source saved with another hash as stale', async () => {
    const ws = 'val';
    const old = await f.client.ok<Rec>('remember', {
      workspace: ws,
      content: 'staging is deployed with the systemd unit app-staging',
      source_id: 'docs/deploy.md',
      source_hash: 'sha256:aaa',
    });
    const current = await f.client.ok<Rec>('remember', {
      workspace: ws,
      content: 'staging deploys need a feature flag',
      source_id: 'docs/deploy.md',
      source_hash: 'sha256:bbb',
    });
    await f.client.ok('remember', { workspace: ws, content: 'other source', source_id: 'docs/other.md', source_hash: 'x' });
    const report = await f.client.ok<{
      checked: number;
      stale_count: number;
      stale: Rec[];
      fresh: Rec[];
    }>('validate_memory', { workspace: ws, source_id: 'docs/deploy.md', current_source_hash: 'sha256:bbb' });
    expect(report.checked).toBe(2);
    expect(report.stale_count).toBe(1);
    expect(report.stale.map((r) => [r.id, r.status])).toEqual([[old.id, 'stale']]);
    expect(report.fresh.map((r) => r.id)).toEqual([current.id]);

    const searched = await f.client.ok<SearchResult>('search', {
      query: 'staging',
      workspace: ws,
      current_source_hash: 'sha256:bbb',
    });
    expect(searched.result.find((r) => r.id === old.id)?.status).toBe('stale');
  });

  it('needs an existing workspace and both arguments', async () => {
    const missing = await f.client.call('validate_memory', { workspace: 'nope', source_id: 'a', current_source_hash: 'b' });
    expect(missing.text).toBe("workspace 'nope' is not active");
    const empty = await f.client.call('validate_memory', { source_id: ' ', current_source_hash: 'b' });
    expect(empty.isError).toBe(true);
  });
});
