import { describe, expect, it } from 'vitest';
import { runScript } from '@mmw/test-support';

// Each entry of the build, given bad configuration, stops with one line naming the cause and a
// non-zero exit code, before it listens.
const entries = [
  'apps/mcp/dist/main.js',
  'apps/dashboard/dist/main.js',
  'apps/server/dist/worker.js',
  'apps/server/dist/main.js',
];
const base = { MCP_PORT: '0', DASHBOARD_PORT: '0', LOG_LEVEL: 'warn' };

async function failsWithOneLine(script: string, env: Record<string, string>): Promise<string> {
  const run = await runScript(script, [], { ...base, ...env }, { built: true });
  expect(run.code).not.toBe(0);
  expect(run.code).not.toBeNull();
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(run.stdout).not.toMatch(/listening|started/);
  return lines[0] ?? '';
}

describe('bad configuration stops the process with one clear line', () => {
  it.each(entries)('%s: an unparsable DATABASE_URL, without repeating it', async (script) => {
    const line = await failsWithOneLine(script, { DATABASE_URL: 'postgres//mmw:s3cr3t-pw@db' });
    expect(line).toMatch(/DATABASE_URL: is not a PostgreSQL URL/);
    expect(line).not.toContain('s3cr3t-pw');
  });

  it.each(entries)('%s: a database that does not answer at start', async (script) => {
    const line = await failsWithOneLine(script, { DATABASE_URL: 'postgres://mmw:s3cr3t-pw@127.0.0.1:1/mmw' });
    expect(line).toMatch(/could not start: .*ECONNREFUSED 127\.0\.0\.1:1/);
    expect(line).not.toContain('s3cr3t-pw');
  });

  it.each(['apps/dashboard/dist/main.js', 'apps/server/dist/main.js'])(
    '%s: billing on without the Stripe webhook secret',
    async (script) => {
      const line = await failsWithOneLine(script, {
        DATABASE_URL: 'postgres://mmw@127.0.0.1:1/mmw',
        STRIPE_SECRET_KEY: 'sk_test_not_a_real_key',
      });
      expect(line).toMatch(/STRIPE_WEBHOOK_SECRET: is required when STRIPE_SECRET_KEY is set/);
      expect(line).not.toContain('sk_test_not_a_real_key');
    },
  );

  // Each app composes its own settings on the core's: its own variables are checked where it starts.
  it.each([
    ['apps/mcp/dist/main.js', 'MCP_PORT'],
    ['apps/dashboard/dist/main.js', 'DASHBOARD_PORT'],
    ['apps/server/dist/main.js', 'DASHBOARD_PORT'],
    ['apps/server/dist/worker.js', 'METRICS_PORT'],
  ])('%s: %s that is not a port', async (script, variable) => {
    const line = await failsWithOneLine(script, {
      DATABASE_URL: 'postgres://mmw@127.0.0.1:1/mmw',
      [variable]: 'eighty',
    });
    expect(line).toContain(`${variable}: `);
  });
});
