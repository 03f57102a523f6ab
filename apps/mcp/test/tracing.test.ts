import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionKey } from '@mmw/core';
import { spanPath, tracingEnabled } from '@mmw/core/tracing';
import { createTestDatabase, startScript, type RunningProcess, type TestDatabase } from '@mmw/test-support';

// Tracing switched on by the standard OTEL_* variables alone: the ingress sends its spans (the HTTP
// request and the PostgreSQL statements under it) to an OTLP receiver, here a local one that keeps
// what it is sent.
let testDb: TestDatabase;
let receiver: Server;
let ingress: RunningProcess | undefined;
const received: string[] = [];

beforeAll(async () => {
  testDb = await createTestDatabase();
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/v1/traces') received.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await ingress?.stop();
  await new Promise((resolve) => receiver.close(resolve));
  await testDb.drop();
});

interface Span {
  name: string;
  traceId: string;
  attributes: { key: string; value: { stringValue?: string } }[];
}
function spans(): Span[] {
  return received.flatMap((body) => {
    const data = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: Span[] }[] }[] };
    return data.resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans));
  });
}
const attribute = (span: Span, key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue;

describe('tracing', () => {
  it('is on only when OTEL_* names where spans go, and not switched off', () => {
    expect(tracingEnabled({})).toBe(false);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingEnabled({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingEnabled({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingEnabled({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
  });

  it('names a request by its door, never a token in a link or a query', () => {
    expect(spanPath('/mcp')).toBe('/mcp');
    expect(spanPath('/trpc/records.list,audit.list?batch=1&input=%7B%7D')).toBe('/trpc/records.list,audit.list');
    expect(spanPath('/invite/3f9a0c1d?email=a@example.com')).toBe('/invite');
    expect(spanPath(undefined)).toBe('/');
  });

  it('with an OTLP endpoint set, traces a tool call down to its SQL without its values', { timeout: 90_000 }, async () => {
    const address = receiver.address();
    if (typeof address !== 'object' || !address) throw new Error('no receiver address');
    const { key } = await provisionKey(testDb.database.db, { account: 'traced', project: 'default' });
    ingress = startScript('apps/mcp/src/main.ts', [], {
      DATABASE_URL: testDb.url,
      MCP_PORT: '0',
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${address.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'mmw-traced',
    });
    const [, url] = await ingress.waitFor(/listening on (http:\S+\/mcp)/);
    if (!url) throw new Error('no url');
    const secret = 'the traced deploy window is tuesday afternoon';
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${key}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'remember', arguments: { content: secret } } }),
    });
    expect(response.status).toBe(200);
    await fetch(`${url}?token=abc-secret-token`, { method: 'GET' });

    const deadline = Date.now() + 20_000;
    const server = () => spans().find((span) => attribute(span, 'url.path') === '/mcp');
    while (Date.now() < deadline && !(server() && spans().some((span) => attribute(span, 'db.system.name') === 'postgresql')))
      await new Promise((resolve) => setTimeout(resolve, 100));
    const request = server();
    expect(request).toBeDefined();
    const statements = spans().filter((span) => attribute(span, 'db.system.name') === 'postgresql');
    expect(statements.some((span) => span.traceId === request?.traceId)).toBe(true);
    expect(received.join('')).toContain('mmw-traced');
    expect(received.join('')).not.toContain('tuesday afternoon');
    expect(received.join('')).not.toContain(key);
    expect(received.join('')).not.toContain('abc-secret-token');
  });
});
