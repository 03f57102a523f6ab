import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { buildDashboardApp } from '../src/index.ts';

// The dashboard's answers carry the headers that keep a browser from framing it, sniffing a type or
// running a script from elsewhere: pages, the tRPC API and the plain routes alike.
let db: TestDatabase;
const apps: FastifyInstance[] = [];

async function start(publicUrl: string | undefined): Promise<string> {
  const app = await buildDashboardApp({ db: db.database.db, logLevel: 'silent', publicUrl, signUpsPerAddress: 10_000 });
  apps.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db.drop();
});

const paths = [
  ['the first page', 'GET', '/'],
  ['a page the web UI routes', 'GET', '/records/some-id'],
  ['a tRPC query', 'GET', '/trpc/auth.me'],
  ['a tRPC mutation refused', 'POST', '/trpc/auth.signIn'],
  ['the health check', 'GET', '/healthz'],
  ['an unknown API path', 'GET', '/trpc/no.such.procedure'],
] as const;

describe('security headers over plain http', () => {
  let url = '';
  beforeAll(async () => {
    url = await start(undefined);
  });

  it.each(paths)('%s (%s %s) carries CSP, frame-ancestors and nosniff, and no HSTS', async (_name, method, path) => {
    const response = await fetch(url + path, {
      method,
      ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
    });
    await response.arrayBuffer();
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // Over http, HSTS would promise something the server does not do.
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('security headers where the dashboard is reached over https', () => {
  let url = '';
  beforeAll(async () => {
    url = await start('https://mmw.example.com');
  });

  it.each(paths)('%s (%s %s) also carries HSTS', async (_name, method, path) => {
    const response = await fetch(url + path, {
      method,
      ...(method === 'POST' ? { body: '{}', headers: { 'content-type': 'application/json' } } : {}),
    });
    await response.arrayBuffer();
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
