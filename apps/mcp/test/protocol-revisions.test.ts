import { describe, expect, it } from 'vitest';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client,
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { useMcp, type Rec, type SearchResult } from './fixtures.ts';

const f = useMcp('revisions-co', 'main');
const TOOLS = ['forget', 'remember', 'search', 'search_sessions', 'validate_memory'];

function modernClient(headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(f.mcp.url), {
    requestInit: { headers: { authorization: `Bearer ${f.key}`, ...headers } },
  });
  const client = new Client(
    { name: 'mmw-tests-modern', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  return { client, transport };
}

/** A modern request as a 2026-07-28 client sends it: the revision in the header, the body and Mcp-Method. */
async function modernRaw(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}) {
  const response = await fetch(f.mcp.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${f.key}`,
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method,
      params: {
        ...params,
        _meta: {
          [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
          [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1.0.0' },
          [CLIENT_CAPABILITIES_META_KEY]: {},
        },
      },
    }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('both MCP revisions from one endpoint', () => {
  it('serves a 2025-11-25 client of the SDK 1.x: initialize, the tool list, remember and search', async () => {
    const client = new LegacyClient({ name: 'mmw-tests-legacy', version: '1.0.0' });
    await client.connect(
      new LegacyTransport(new URL(f.mcp.url), {
        requestInit: { headers: { authorization: `Bearer ${f.key}` } },
      }),
    );
    try {
      expect(client.getServerVersion()?.name).toBe('mmw');
      const first = await client.listTools();
      const second = await client.listTools();
      expect(first.tools.map((t) => t.name).sort()).toEqual(TOOLS);
      expect(second).toEqual(first);
      const saved = await client.callTool({ name: 'remember', arguments: { content: 'legacy era: deploys use blue-green' } });
      expect(saved.isError).not.toBe(true);
      const found = await client.callTool({ name: 'search', arguments: { query: 'blue-green' } });
      const result = (found.structuredContent as SearchResult).result;
      expect(result.map((r) => r.content)).toContain('legacy era: deploys use blue-green');
      const bad = await client.callTool({ name: 'remember', arguments: { content: '' } });
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('serves a 2026-07-28 client of the SDK 2.x: discovery, a stable tool list, remember and search', async () => {
    const { client, transport } = modernClient();
    await client.connect(transport);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getServerVersion()?.name).toBe('mmw');
      const first = await client.listTools();
      const second = await client.listTools();
      expect(first.tools.map((t) => t.name).sort()).toEqual(TOOLS);
      expect(second.tools).toEqual(first.tools);
      const saved = await client.callTool({
        name: 'remember',
        arguments: { content: 'modern era: releases ship on Tuesdays', fact_key: null },
      });
      expect(saved.isError).not.toBe(true);
      expect((saved.structuredContent as Rec).content).toBe('modern era: releases ship on Tuesdays');
      const found = await client.callTool({ name: 'search', arguments: { query: 'Tuesdays' } });
      expect((found.structuredContent as SearchResult).result.map((r) => r.content)).toContain(
        'modern era: releases ship on Tuesdays',
      );
      // The spec's error texts hold in this revision too.
      const empty = await client.callTool({ name: 'remember', arguments: { content: '   ' } });
      expect(empty.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers server/discover and tools/list with ttlMs and cacheScope', async () => {
    const discover = await modernRaw('server/discover', {});
    expect(discover.status).toBe(200);
    const discovered = discover.body.result as Record<string, unknown>;
    expect(discovered.supportedVersions).toContain('2026-07-28');
    expect(typeof discovered.ttlMs).toBe('number');
    expect(['public', 'private']).toContain(discovered.cacheScope);
    const list = await modernRaw('tools/list', {});
    const listed = list.body.result as { tools: Array<{ name: string }>; ttlMs: number; cacheScope: string };
    expect(listed.tools.map((t) => t.name).sort()).toEqual(TOOLS);
    expect(listed.ttlMs).toBeGreaterThan(0);
    expect(listed.cacheScope).toBe('public');
    const again = await modernRaw('tools/list', {});
    expect(again.body).toEqual(list.body);
  });

  it('refuses an Mcp-Method header that disagrees with the body, with the revision\'s error code', async () => {
    const mismatch = await modernRaw('tools/list', {}, { 'mcp-method': 'tools/call' });
    expect(mismatch.status).toBe(400);
    expect((mismatch.body.error as { code: number }).code).toBe(-32020);
  });

  it('keeps the key, the limits headers and the idempotency header in the new revision', async () => {
    const args = { name: 'remember', arguments: { content: 'modern idempotent: the cache warms at six' } };
    const first = await modernRaw('tools/call', args, { 'x-idempotency-key': 'modern-1', 'mcp-name': 'remember' });
    const second = await modernRaw('tools/call', args, { 'x-idempotency-key': 'modern-1', 'mcp-name': 'remember' });
    expect(first.status).toBe(200);
    const a = (first.body.result as { structuredContent: Rec }).structuredContent;
    const b = (second.body.result as { structuredContent: Rec }).structuredContent;
    expect(b.id).toBe(a.id);
    const unauthorized = await modernRaw('tools/list', {}, { authorization: 'Bearer mmw_nope' });
    expect(unauthorized.status).toBe(401);
    const limited = await fetch(f.mcp.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${f.key}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'search',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: {
          name: 'search',
          arguments: { query: 'cache' },
          _meta: {
            [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
            [CLIENT_INFO_META_KEY]: { name: 'raw', version: '1.0.0' },
            [CLIENT_CAPABILITIES_META_KEY]: {},
          },
        },
      }),
    });
    expect(limited.status).toBe(200);
    expect(limited.headers.get('ratelimit')).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
  });
});
