import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startScript, type RunningProcess, type TestDatabase } from '@mmw/test-support';

// The dashboard started on its own (compose and Kubernetes run it so) reads its own settings as the
// one-process server does: TRUST_PROXY for the client's address, and where mail goes.
let db: TestDatabase;
let dashboard: RunningProcess;
let url = '';
const dataDir = mkdtempSync(join(tmpdir(), 'mmw-standalone-'));

beforeAll(async () => {
  db = await createTestDatabase();
  dashboard = startScript('apps/dashboard/src/main.ts', [], {
    DATABASE_URL: db.url,
    DASHBOARD_PORT: '0',
    MMW_DATA_DIR: dataDir,
    TRUST_PROXY: 'loopback',
    LOG_LEVEL: 'warn',
  });
  const [, address] = await dashboard.waitFor(/Dashboard listening on (http:\S+)/, 120_000);
  url = address ?? '';
}, 180_000);
afterAll(async () => {
  await dashboard.stop();
  await db.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function signUp(email: string, address: string): Promise<number> {
  const response = await fetch(`${url}/trpc/auth.signUp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url, 'x-mmw-csrf': '1', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'Standalone' }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the dashboard started on its own', () => {
  it('counts sign-ups per forwarded address behind a trusted proxy, and mails into MMW_DATA_DIR', async () => {
    // Six sign-ups through the proxy, each from its own client: more than one address's five.
    for (let i = 1; i <= 6; i += 1) {
      expect(await signUp(`standalone-${i}@example.com`, `203.0.113.${i}`)).toBe(200);
    }
    // The verification mails are under MMW_DATA_DIR/mail (no SMTP_URL), one per sign-up.
    const mails = readdirSync(join(dataDir, 'mail')).map((file) => readFileSync(join(dataDir, 'mail', file), 'utf8'));
    expect(mails.filter((mail) => mail.startsWith('To: standalone-'))).toHaveLength(6);
  });
});
