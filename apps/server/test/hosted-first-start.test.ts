import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startScript, type RunningProcess, type TestDatabase } from '@mmw/test-support';

let server: RunningProcess | undefined;
let db: TestDatabase | undefined;

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe('a first start on a hosted database', () => {
  it('creates no local account, key or password and prints none', async () => {
    db = await createTestDatabase();
    server = startScript('apps/server/src/main.ts', [], { DATABASE_URL: db.url, MCP_PORT: '0', DASHBOARD_PORT: '0', LOG_LEVEL: 'warn' });
    await server.waitFor(/MMW is ready: MCP at http:\/\/127\.0\.0\.1:\d+\/mcp/);
    expect(server.output()).not.toMatch(/mmw_\w{20,}|password/);
    expect(await db.query('select slug from accounts')).toEqual([]);
    expect(await db.query('select id from api_keys')).toEqual([]);
  });
});
