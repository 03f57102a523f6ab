import { describe, expect, it } from 'vitest';
import { useMcp } from './fixtures.ts';
import { rawToolCall } from './raw-call.ts';

const f = useMcp('idem-co', 'main');
const idem = (key: string) => ({ 'x-idempotency-key': key });

describe('X-Idempotency-Key', () => {
  it('returns the same record for a repeat and stores one', async () => {
    const args = { content: 'idempotent fact', workspace: 'idem' };
    const first = await rawToolCall(f.mcp.url, f.key, 'remember', args, idem('k-1'));
    const second = await rawToolCall(f.mcp.url, f.key, 'remember', args, idem('k-1'));
    expect(second.structured?.id).toBe(first.structured?.id);
    const found = await f.client.ok<{ result: unknown[] }>('search', { query: 'idempotent', workspace: 'idem' });
    expect(found.result).toHaveLength(1);
  });

  it('replays the first answer as it was given, after the record got a newer version', async () => {
    const args = { content: 'the deploy runs at noon', workspace: 'idem5', fact_key: 'deploy.time' };
    const first = await rawToolCall(f.mcp.url, f.key, 'remember', args, idem('k-5'));
    const newer = await f.client.ok<{ id: string }>('remember', { ...args, content: 'the deploy runs at one' });
    const [old] = (
      await f.client.ok<{ result: Array<{ id: string; superseded_by: string | null }> }>('search', {
        query: 'deploy noon',
        workspace: 'idem5',
      })
    ).result.filter((record) => record.id === first.structured?.id);
    expect(old?.superseded_by).toBe(newer.id);

    const replay = await rawToolCall(f.mcp.url, f.key, 'remember', args, idem('k-5'));
    expect(replay.isError).toBe(false);
    expect(first.structured).toMatchObject({ status: 'unverified', superseded_by: null, graph_relations: [] });
    expect(replay.structured).toEqual(first.structured);
    expect(replay.text).toBe(first.text);
  });

  it('answers 409 Conflict for the same key with different content, and stores nothing', async () => {
    await rawToolCall(f.mcp.url, f.key, 'remember', { content: 'first body', workspace: 'idem2' }, idem('k-2'));
    const other = await rawToolCall(f.mcp.url, f.key, 'remember', { content: 'second body', workspace: 'idem2' }, idem('k-2'));
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/^409 Conflict/);
    const found = await f.client.ok<{ result: unknown[] }>('search', { query: 'body', workspace: 'idem2' });
    expect(found.result).toHaveLength(1);
  });

  it('leaves the key free when the write was refused: nothing of a refused call is kept', async () => {
    const sibling = await f.mcp.key('idem-co', 'sibling');
    await rawToolCall(f.mcp.url, sibling.key, 'remember', { content: 'theirs', workspace: 'sibling-ws' });
    const refused = await rawToolCall(f.mcp.url, f.key, 'remember', { content: 'not here', workspace: 'sibling-ws' }, idem('k-6'));
    expect(refused.text).toBe('403 Forbidden: workspace access denied for project');
    const stored = await rawToolCall(f.mcp.url, f.key, 'remember', { content: 'stored after a refusal', workspace: 'idem6' }, idem('k-6'));
    expect(stored.isError).toBe(false);
    const found = await f.client.ok<{ result: unknown[] }>('search', { query: 'refusal', workspace: 'idem6' });
    expect(found.result).toHaveLength(1);
  });

  it('never makes a second record when repeats race', async () => {
    const args = { content: 'raced fact', workspace: 'idem3' };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, () => rawToolCall(f.mcp.url, f.key, 'remember', args, idem('k-race'))),
    );
    const ids = new Set(outcomes.filter((o) => !o.isError).map((o) => o.structured?.id));
    expect(ids.size).toBe(1);
    const found = await f.client.ok<{ result: unknown[] }>('search', { query: 'raced', workspace: 'idem3' });
    expect(found.result).toHaveLength(1);
  });

  it("keeps keys per project: another tenant's identical key is another request", async () => {
    const other = await f.mcp.key('other-idem-co', 'main');
    const mine = await rawToolCall(f.mcp.url, f.key, 'remember', { content: 'mine' }, idem('shared-key'));
    const theirs = await rawToolCall(f.mcp.url, other.key, 'remember', { content: 'theirs' }, idem('shared-key'));
    expect(theirs.isError).toBe(false);
    expect(theirs.structured?.id).not.toBe(mine.structured?.id);
    expect(theirs.structured?.content).toBe('theirs');
  });

  it('refuses a malformed key and stores nothing', async () => {
    const bad = await rawToolCall(f.mcp.url, f.key, 'remember', { content: 'bad key', workspace: 'idem4' }, idem('x'.repeat(300)));
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('X-Idempotency-Key');
  });
});
