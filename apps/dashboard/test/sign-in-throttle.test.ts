import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import type { FastifyInstance } from 'fastify';
import { buildDashboardApp, loadDashboardConfig } from '../src/index.ts';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, PASSWORD, uniqueEmail } from './fixtures.ts';
import { mailbox } from './mailbox.ts';

// A dashboard behind a trusted proxy (TRUST_PROXY=true), with core's own sign-up limit.
let db: TestDatabase;
let app: FastifyInstance;
let url = '';
const from = (address: string) => dashboardClient(url, { headers: { 'x-forwarded-for': address } }).client;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await buildDashboardApp({
    db: db.database.db,
    logLevel: 'silent',
    mail: mailbox().transport,
    trustProxy: loadDashboardConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY,
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

describe('sign-in, sign-up and password checks are throttled', () => {
  it('verifies at most five of twenty parallel wrong guesses, and the owner still signs in from elsewhere', async () => {
    const email = uniqueEmail('victim');
    await from('10.0.0.1').auth.signUp.mutate({ email, password: PASSWORD });
    const attacker = from('10.0.0.66');
    const codes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => errorCode(attacker.auth.signIn.mutate({ email, password: `wrong guess ${i}` }))),
    );
    expect(codes.filter((code) => code === 'UNAUTHORIZED')).toHaveLength(5);
    expect(codes.filter((code) => code === 'TOO_MANY_REQUESTS')).toHaveLength(15);
    expect(await errorCode(attacker.auth.signIn.mutate({ email, password: PASSWORD }))).toBe('TOO_MANY_REQUESTS');
    const owner = await from('10.0.0.1').auth.signIn.mutate({ email, password: PASSWORD });
    expect(owner.email).toBe(email);
  });

  it('limits sign-ups per address', async () => {
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) codes.push(await errorCode(from('10.0.0.7').auth.signUp.mutate({ email: uniqueEmail('many'), password: PASSWORD })));
    expect(codes).toEqual(['no error', 'no error', 'no error', 'no error', 'no error', 'TOO_MANY_REQUESTS']);
    expect(await errorCode(from('10.0.0.8').auth.signUp.mutate({ email: uniqueEmail('other'), password: PASSWORD }))).toBe('no error');
  });

  it('throttles the current-password check of a password change', async () => {
    const { client } = dashboardClient(url, { headers: { 'x-forwarded-for': '10.0.0.9' } });
    await client.auth.signUp.mutate({ email: uniqueEmail('changer'), password: PASSWORD });
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      codes.push(await errorCode(client.auth.changePassword.mutate({ currentPassword: `not it ${i}`, newPassword: 'another long password' })));
    }
    expect(codes).toEqual(['BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST', 'BAD_REQUEST', 'TOO_MANY_REQUESTS']);
  });

  it('parses TRUST_PROXY and names it when it is wrong', () => {
    expect(loadDashboardConfig({}).TRUST_PROXY).toBe(false);
    expect(loadDashboardConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadDashboardConfig({ TRUST_PROXY: '10.0.0.0/8, loopback' }).TRUST_PROXY).toEqual(['10.0.0.0/8', 'loopback']);
    expect(() => loadDashboardConfig({ TRUST_PROXY: 'everyone' })).toThrow(/TRUST_PROXY/);
  });
});
