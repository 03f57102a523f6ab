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
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'remember', arguments: args },
  });
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
    [
      'a __proto__ key',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"remember","arguments":{"content":"x","__proto__":{"admin":true}}}}',
    ],
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

  it('lists the tools with their schemas and annotations', async () => {
    const { tools } = await f.client.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect([...byName.keys()].sort()).toEqual(['forget', 'remember', 'search', 'search_sessions', 'validate_memory']);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
    expect(byName.get('search')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('validate_memory')?.annotations?.readOnlyHint).toBe(true);
    expect(byName.get('forget')?.annotations?.destructiveHint).toBe(true);
    expect(byName.get('remember')?.annotations?.readOnlyHint).toBe(false);
  });

  it('answers a lone tool call with its JSON-RPC response, its id as sent', async () => {
    for (const id of [7, 'call-7']) {
      const response = await raw(
        JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'search', arguments: { query: '' } },
        }),
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      const body = (await response.json()) as {
        jsonrpc: string;
        id: unknown;
        result: { structuredContent: { result?: unknown } };
      };
      expect(body.jsonrpc).toBe('2.0');
      expect(body.id).toBe(id);
      expect(Array.isArray(body.result.structuredContent.result)).toBe(true);
    }
  });

  it('holds a tool call to the transport rules: Accept, Content-Type and protocol version', async () => {
    const call = toolCall({ content: 'never stored: the request is refused' });
    const before = await count();
    expect((await raw(call, { accept: 'application/json' })).status).toBe(406);
    expect((await raw(call, { 'content-type': 'text/plain' })).status).toBe(415);
    const version = await raw(call, { 'mcp-protocol-version': '1999-01-01' });
    expect(version.status).toBe(400);
    expect(((await version.json()) as { error: { message: string } }).error.message).toMatch(
      /Unsupported protocol version/,
    );
    expect(await count()).toBe(before);
  });

  it('answers a tool call whose params are not a tool call with a JSON-RPC error', async () => {
    const response = await raw(
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 42 } }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: unknown; error?: { code: number; message: string } };
    expect(body.id).toBe(4);
    expect(body.error?.message).toMatch(/invalid/i);
  });

  it('answers a batch of tool calls with an answer for each', async () => {
    const search = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'search', arguments: { query: '' } },
    });
    const response = await raw(JSON.stringify([search(1), search(2)]));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Array<{ id: number; result?: unknown }>;
    expect(body.map((answer) => answer.id).sort()).toEqual([1, 2]);
    expect(body.every((answer) => answer.result !== undefined)).toBe(true);
  });

  it('answers an unknown tool with an error, not a 5xx', async () => {
    const response = await raw(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'drop_tables', arguments: {} },
      }),
    );
    expect(response.status).toBeLessThan(500);
    const body = (await response.json()) as {
      result?: { isError?: boolean; content?: Array<{ text?: string }> };
      error?: { message?: string };
    };
    expect(body.result?.content?.[0]?.text ?? body.error?.message).toMatch(/Tool drop_tables not found/);
  });
});
