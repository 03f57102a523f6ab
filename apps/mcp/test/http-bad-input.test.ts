import { describe, expect, it } from 'vitest';
import { useMcp, type SearchResult } from './fixtures.ts';

const f = useMcp('http-co', 'main');

async function raw(body: string, headers: Record<string, string> = {}, method = 'POST'): Promise<Response> {
  return fetch(f.mcp.url, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${f.key}`,
      ...headers,
    },
    body: method === 'POST' ? body : null,
  });
}

function toolCall(args: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'remember', arguments: args } });
}

async function count(): Promise<number> {
  return (await f.client.ok<SearchResult>('search', { query: '', limit: 50 })).result.length;
}

describe('the HTTP door', () => {
  it('answers GET and DELETE with 405', async () => {
    expect((await raw('', {}, 'GET')).status).toBe(405);
    expect((await raw('', {}, 'DELETE')).status).toBe(405);
  });

  it('serves health and readiness', async () => {
    const base = f.mcp.url.replace(/\/mcp$/, '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'ready' });
  });

  it.each([
    ['malformed JSON', '{"jsonrpc": "2.0", "id": 1, "method": '],
    ['a JSON-RPC body of the wrong shape', JSON.stringify({ hello: 'world' })],
    ['a __proto__ key', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"content":"x","__proto__":{"admin":true}}}}'],
    ['a 10 MB body', toolCall({ content: 'x'.repeat(10 * 1024 * 1024) })],
  ])('answers %s with a 4xx and stores nothing', async (_name, body) => {
    await f.client.ok('remember', { content: 'baseline' });
    const before = await count();
    const response = await raw(body);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    expect(await count()).toBe(before);
  });

  it('answers JSON nested 1,000 deep with a clear error and stores nothing', async () => {
    const before = await count();
    let nested = '"x"';
    for (let i = 0; i < 1000; i++) nested = `{"a":${nested}}`;
    const response = await raw(toolCall({ content: JSON.parse(nested) as unknown }));
    expect(response.status).toBeLessThan(500);
    const body = (await response.json()) as { result?: { isError?: boolean }; error?: unknown };
    expect(body.result?.isError === true || body.error !== undefined).toBe(true);
    expect(await count()).toBe(before);
  });

  it('answers an unknown tool with an error, not a 5xx', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'drop_tables', arguments: {} } }),
    );
    expect(response.status).toBeLessThan(500);
  });
});
