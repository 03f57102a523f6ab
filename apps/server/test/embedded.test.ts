import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connectMcp, runScript, startScript, type RunningProcess } from '@mmw/test-support';

const dataDir = mkdtempSync(join(tmpdir(), 'mmw-embedded-'));
const env = { MMW_DATA_DIR: dataDir, MCP_PORT: '0', DASHBOARD_PORT: '0', LOG_LEVEL: 'warn' };
let server: RunningProcess | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the embedded default', () => {
  it('starts with no DATABASE_URL, prints a key and the claude line, and keeps data across restarts', async () => {
    server = startScript('apps/server/src/main.ts', [], env);
    const [, url, key] = await server.waitFor(
      /claude mcp add --transport http mmw (http:\/\/127\.0\.0\.1:\d+\/mcp) --header "Authorization: Bearer (mmw_\w+)"/,
    );
    if (url === undefined || key === undefined) throw new Error('no claude line');
    const [, dashboardUrl, email, password] = server.output().match(/Dashboard: (\S+) +\(sign in as (\S+) with password (\S+)\)/) ?? [];
    const signIn = await fetch(`${dashboardUrl}/trpc/auth.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: dashboardUrl ?? '', 'x-mmw-csrf': '1' },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('set-cookie')).toMatch(/^mmw_session=/);
    const client = await connectMcp(url, key);
    const saved = await client.ok<{ id: string }>('remember', { content: 'embedded mode keeps this fact', fact_key: 'embedded' });
    const first = await client.ok<{ result: Array<{ id: string }> }>('search', { query: 'embedded fact' });
    expect(first.result.map((r) => r.id)).toEqual([saved.id]);
    await client.close();
    expect(await server.stop()).toBe(0);

    server = startScript('apps/server/src/main.ts', [], env);
    const [, secondUrl] = await server.waitFor(/MCP at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    if (secondUrl === undefined) throw new Error('no url');
    expect(server.output()).not.toContain('claude mcp add');
    const again = await connectMcp(secondUrl, key);
    const second = await again.ok<{ result: Array<{ id: string }> }>('search', { query: 'embedded fact' });
    expect(second.result.map((r) => r.id)).toEqual([saved.id]);
    await again.close();
  });

  it('a start that fails on a port in use closes the database, so the next start opens it', async () => {
    await server?.stop();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const failed = await runScript('apps/server/src/main.ts', [], { ...env, DASHBOARD_PORT: String(port) });
      expect(failed.code).toBe(1);
      expect(failed.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^MMW could not start: .*EADDRINUSE/)]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
    server = startScript('apps/server/src/main.ts', [], env);
    await server.waitFor(/MMW is ready/);
    expect(await server.stop()).toBe(0);
  });
});
