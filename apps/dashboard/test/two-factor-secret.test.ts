import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '@mmw/core';
import { buildDashboardApp } from '../src/index.ts';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, PASSWORD, signUp, useDashboard, type SignedIn } from './fixtures.ts';
import { dumpData } from './pg-dump.ts';
import { totpCode } from './totp.ts';

// The TOTP secret at rest is sealed under MMW_SECRET_KEY; recovery codes are stored as hashes.
const keyA = randomBytes(32).toString('base64');
const keyB = randomBytes(32).toString('base64');
const f = useDashboard({ env: { MMW_SECRET_KEY: keyA } });

const others: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of others) await app.close();
});

/** Another dashboard over the same database, with its own MMW_SECRET_KEY (or none). */
async function dashboardWith(secretKey: string | undefined): Promise<string> {
  const app = await buildDashboardApp({
    config: loadConfig(secretKey === undefined ? {} : { MMW_SECRET_KEY: secretKey }),
    db: f.db.database.db,
    logLevel: 'silent',
    mail: f.mail.transport,
    signUpsPerAddress: 10_000,
  });
  others.push(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

async function enrol(person: SignedIn, url = f.url): Promise<{ secret: string; recoveryCodes: string[] }> {
  const client = url === f.url ? person.client : await signedInAt(url, person.email);
  const { secret } = await client.twoFactor.startEnrolment.mutate({});
  const { recoveryCodes } = await client.twoFactor.confirmEnrolment.mutate({ code: totpCode(secret) });
  return { secret, recoveryCodes };
}

async function signedInAt(url: string, email: string) {
  const { client } = dashboardClient(url);
  await client.auth.signIn.mutate({ email, password: PASSWORD });
  return client;
}

/** Password, then the code: the second step of signing in, at the dashboard at url. */
async function secondStep(url: string, email: string, code: string) {
  const client = await signedInAt(url, email);
  await client.auth.verifySecondFactor.mutate({ code });
  return client;
}

describe('the two-factor secret at rest', () => {
  it('is neither in the table nor in a dump in the clear, nor are the recovery codes; sign-in works with the key', async () => {
    const person = await signUp(f, 'sealed');
    const { secret, recoveryCodes } = await enrol(person);
    const [row] = await f.db.query<{ secret: string }>('select secret from two_factor_credentials where user_id = $1', [person.userId]);
    expect(row?.secret).toMatch(/^v1:[0-9a-f]{8}:/);
    expect(row?.secret).not.toContain(secret);
    const dump = await dumpData(f.db.url);
    expect(dump).toContain(person.userId);
    expect(dump).not.toContain(secret);
    for (const code of recoveryCodes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace(/-/g, ''));
    }
    const client = await secondStep(f.url, person.email, totpCode(secret, 1));
    expect(await client.auth.me.query()).toMatchObject({ secondFactorPending: false, twoFactorEnabled: true });
  });

  it('keeps working when a new key is put in front of the old one, and says so plainly when no key opens it', async () => {
    const rotated = await dashboardWith(`${keyB},${keyA}`);
    const other = await dashboardWith(keyB);
    const first = await signUp(f, 'rotated');
    const { secret: firstSecret } = await enrol(first);
    const signedIn = await secondStep(rotated, first.email, totpCode(firstSecret, 1));
    expect(await signedIn.auth.me.query()).toMatchObject({ secondFactorPending: false });

    const second = await signUp(f, 'lost-key');
    const { secret: secondSecret } = await enrol(second);
    const pending = await signedInAt(other, second.email);
    const refusal = pending.auth.verifySecondFactor.mutate({ code: totpCode(secondSecret, 1) });
    await expect(refusal).rejects.toThrow('two-factor sign-in is unavailable: this server cannot read the secret');
    expect(await errorCode(refusal)).toBe('CONFLICT');
    expect(await pending.auth.me.query()).toMatchObject({ secondFactorPending: true });
  });

  it('a secret stored before the key was set still signs its user in once it is', async () => {
    const plain = await dashboardWith(undefined);
    const person = await signUp(f, 'plain-before');
    const { secret } = await enrol(person, plain);
    const [row] = await f.db.query<{ secret: string }>('select secret from two_factor_credentials where user_id = $1', [person.userId]);
    expect(row?.secret).toBe(secret);
    const client = await secondStep(f.url, person.email, totpCode(secret, 1));
    expect(await client.auth.me.query()).toMatchObject({ secondFactorPending: false });
  });

  it('refuses a MMW_SECRET_KEY that is not 32 bytes of base64, naming the variable and not the value', () => {
    for (const bad of ['too-short', Buffer.alloc(16).toString('base64'), `${keyA},nope`]) {
      let message = '';
      try {
        loadConfig({ MMW_SECRET_KEY: bad });
      } catch (error) {
        message = error instanceof Error ? error.message : '';
      }
      expect(message).toContain('MMW_SECRET_KEY');
      expect(message).not.toContain(bad);
    }
  });
});
