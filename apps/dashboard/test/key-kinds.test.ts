import { describe, expect, it } from 'vitest';
import { connectMcp } from '@mmw/test-support';
import { organizationWith, useDashboard } from './fixtures.ts';

const f = useDashboard();
const READ_ONLY = 'this key is read-only: it may search and validate_memory, not remember or forget';

describe('keys chosen read-only or with an expiry when issued', () => {
  it('a read-only key searches and validates, and is refused remember and forget with a clear error', async () => {
    const org = await organizationWith(f, 'Kinds');
    const { accountId, projectId } = org;
    const full = await org.owner.client.keys.issue.mutate({ accountId, projectId, name: 'writer' });
    const reader = await org.owner.client.keys.issue.mutate({ accountId, projectId, name: 'reader', readOnly: true });
    expect(reader.summary).toMatchObject({ readOnly: true, expiresAt: null });
    const writer = await connectMcp(f.mcp.url, full.key);
    const saved = await writer.ok<{ id: string }>('remember', { content: 'the reader may find this', source_id: 'doc.md', source_hash: 'h1' });
    const readOnly = await connectMcp(f.mcp.url, reader.key);
    expect((await readOnly.ok<{ result: unknown[] }>('search', { query: 'reader' })).result).toHaveLength(1);
    expect((await readOnly.call('validate_memory', { source_id: 'doc.md', current_source_hash: 'h2' })).isError).toBe(false);
    for (const [tool, args] of [['remember', { content: 'not allowed' }], ['forget', { id: saved.id }]] as const) {
      const refused = await readOnly.call(tool, args);
      expect({ tool, isError: refused.isError, text: refused.text }).toEqual({ tool, isError: true, text: READ_ONLY });
    }
    await Promise.all([writer.close(), readOnly.close()]);
  });

  it('an expiring key shows its expiry and stops working when it passes', async () => {
    const org = await organizationWith(f, 'Expiry');
    const { accountId, projectId } = org;
    const issued = await org.owner.client.keys.issue.mutate({ accountId, projectId, name: 'week', expiresInDays: 7 });
    const listed = (await org.owner.client.keys.list.query({ accountId })).find((key) => key.id === issued.summary.id);
    const days = (new Date(listed?.expiresAt ?? 0).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const agent = await connectMcp(f.mcp.url, issued.key);
    expect((await agent.call('search', { query: 'anything' })).text).toBe("workspace 'default' is not active");
    // A week later, as far as the key is concerned.
    await f.db.query("update api_keys set expires_at = now() - interval '1 second' where id = $1", [issued.summary.id]);
    await expect(agent.call('search', { query: 'anything' })).rejects.toThrow(/Streamable HTTP error/);
    await agent.close();
  });
});
