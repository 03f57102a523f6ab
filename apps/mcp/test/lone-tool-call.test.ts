import { describe, expect, it } from 'vitest';
import { useMcp } from './fixtures.ts';

const f = useMcp('lone-co', 'main');

describe('a lone tool call', () => {
  it('with a member beside jsonrpc, id, method and params is refused at once, as the SDK refuses it', async () => {
    const response = await fetch(f.mcp.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${f.key}`,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'search', arguments: { query: 'deploy key' } },
        extra: true,
      }),
      signal: AbortSignal.timeout(5_000),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error?: { code?: number } };
    expect(body.error?.code).toBe(-32600);
  });
});
