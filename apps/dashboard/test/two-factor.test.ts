import { describe, expect, it } from 'vitest';
import { dashboardClient, type DashboardClient } from './dashboard-client.ts';
import { errorCode, organizationWith, PASSWORD, signUp, useDashboard, type SignedIn } from './fixtures.ts';
import { totpCode } from './totp.ts';

const f = useDashboard();

/** Enrols the person: the secret (from the QR's URI) and the recovery codes, shown once each. */
async function enrol(person: SignedIn): Promise<{ secret: string; recoveryCodes: string[]; confirmedWith: string }> {
  const { secret, uri } = await person.client.twoFactor.startEnrolment.mutate({});
  expect(uri).toMatch(/^otpauth:\/\/totp\/MMW:/);
  expect(new URL(uri).searchParams.get('secret')).toBe(secret);
  const confirmedWith = totpCode(secret);
  const { recoveryCodes } = await person.client.twoFactor.confirmEnrolment.mutate({ code: confirmedWith });
  return { secret, recoveryCodes, confirmedWith };
}

async function passwordStep(email: string): Promise<DashboardClient> {
  const { client } = dashboardClient(f.url);
  const answer = await client.auth.signIn.mutate({ email, password: PASSWORD });
  expect(answer.secondFactorRequired).toBe(true);
  return client;
}

describe('two-factor sign-in', () => {
  it('enrols with a confirming code; then the password opens only a pending session until the code is given', async () => {
    const person = await signUp(f, 'tina');
    const { secret: firstSecret } = await person.client.twoFactor.startEnrolment.mutate({});
    expect(await errorCode(person.client.twoFactor.confirmEnrolment.mutate({ code: '000000' === totpCode(firstSecret) ? '111111' : '000000' }))).toBe('BAD_REQUEST');
    expect(await person.client.twoFactor.status.query()).toEqual({ enabled: false, recoveryCodesLeft: 0 });

    const { secret, recoveryCodes, confirmedWith } = await enrol(person);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    expect(await person.client.twoFactor.status.query()).toEqual({ enabled: true, recoveryCodesLeft: 10 });
    expect(await errorCode(person.client.twoFactor.startEnrolment.mutate({}))).toBe('CONFLICT');
    // Only hashes of the recovery codes are stored.
    const stored = await f.db.query<{ code_hash: string }>('select code_hash from recovery_codes where user_id = $1', [person.userId]);
    expect(stored.map((row) => row.code_hash)).not.toContain(recoveryCodes[0]);

    const pending = await passwordStep(person.email);
    expect(await pending.auth.me.query()).toMatchObject({ id: person.userId, secondFactorPending: true });
    expect(await errorCode(pending.accounts.list.query())).toBe('UNAUTHORIZED');
    expect(await errorCode(pending.twoFactor.disable.mutate({ code: totpCode(secret, 1) }))).toBe('UNAUTHORIZED');
    // The code used to confirm the enrolment is spent: replaying it within its window fails.
    expect(await errorCode(pending.auth.verifySecondFactor.mutate({ code: confirmedWith }))).toBe('BAD_REQUEST');
    await pending.auth.verifySecondFactor.mutate({ code: totpCode(secret, 1) });
    expect(await pending.auth.me.query()).toMatchObject({ secondFactorPending: false, twoFactorEnabled: true });
    expect((await pending.accounts.list.query()).length).toBeGreaterThan(0);
  });

  it('takes each recovery code once, and the pending token never becomes a full session', async () => {
    const person = await signUp(f, 'rene');
    const { recoveryCodes } = await enrol(person);
    const code = recoveryCodes[3] ?? '';
    const { client, jar } = dashboardClient(f.url);
    await client.auth.signIn.mutate({ email: person.email, password: PASSWORD });
    const pendingCookie = jar.cookie;
    await client.auth.verifySecondFactor.mutate({ code: code.toUpperCase() });
    expect(jar.cookie).not.toBe(pendingCookie);
    expect((await client.accounts.list.query()).length).toBeGreaterThan(0);
    const stale = dashboardClient(f.url, { jar: { cookie: pendingCookie, lastSetCookie: undefined } }).client;
    expect(await stale.auth.me.query()).toBeNull();

    const again = await passwordStep(person.email);
    expect(await errorCode(again.auth.verifySecondFactor.mutate({ code }))).toBe('BAD_REQUEST');
    expect(await person.client.twoFactor.status.query()).toEqual({ enabled: true, recoveryCodesLeft: 9 });
  });

  it('throttles code attempts, parallel ones included', async () => {
    const person = await signUp(f, 'theo');
    const { secret } = await enrol(person);
    const pending = await passwordStep(person.email);
    const wrong = totpCode(secret, 5);
    const outcomes = await Promise.all(Array.from({ length: 9 }, () => errorCode(pending.auth.verifySecondFactor.mutate({ code: wrong }))));
    expect(outcomes.filter((o) => o === 'BAD_REQUEST')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'TOO_MANY_REQUESTS')).toHaveLength(4);
    // Even the right code waits out the window; so does a new password step.
    expect(await errorCode(pending.auth.verifySecondFactor.mutate({ code: totpCode(secret, 1) }))).toBe('TOO_MANY_REQUESTS');
    const next = await passwordStep(person.email);
    expect(await errorCode(next.auth.verifySecondFactor.mutate({ code: totpCode(secret, 1) }))).toBe('TOO_MANY_REQUESTS');
  });

  it('turns off only with a code, and sign-in then asks for the password alone', async () => {
    const person = await signUp(f, 'dora');
    const { recoveryCodes } = await enrol(person);
    expect(await errorCode(person.client.twoFactor.disable.mutate({ code: 'aaaa-bbbb-cccc-dddd' }))).toBe('BAD_REQUEST');
    await person.client.twoFactor.disable.mutate({ code: recoveryCodes[0] ?? '' });
    expect(await person.client.twoFactor.status.query()).toEqual({ enabled: false, recoveryCodesLeft: 0 });
    const { client } = dashboardClient(f.url);
    expect((await client.auth.signIn.mutate({ email: person.email, password: PASSWORD })).secondFactorRequired).toBe(false);
    expect(await f.db.query('select 1 from two_factor_credentials where user_id = $1', [person.userId])).toHaveLength(0);
  });

  it('lets an owner require it of an organization: members without it are asked to enrol first', async () => {
    const org = await organizationWith(f, 'strictco', [{ name: 'mia', role: 'member' }]);
    const member = org.members.mia;
    if (!member) throw new Error('no member');
    const set = (client: DashboardClient, required: boolean) => client.accounts.setTwoFactorRequirement.mutate({ accountId: org.accountId, required });
    expect(await errorCode(set(org.owner.client, true))).toBe('CONFLICT');
    expect(await errorCode(set(member.client, true))).toBe('FORBIDDEN');
    await enrol(org.owner);
    await set(org.owner.client, true);

    const listed = (await member.client.accounts.list.query()).find((a) => a.id === org.accountId);
    expect(listed?.requireTwoFactor).toBe(true);
    await expect(member.client.projects.list.query({ accountId: org.accountId })).rejects.toThrow(/requires two-factor sign-in/);
    // Their personal account is not affected.
    expect(await member.client.projects.list.query({ accountId: member.personalAccountId })).not.toHaveLength(0);
    await enrol(member);
    expect(await member.client.projects.list.query({ accountId: org.accountId })).not.toHaveLength(0);

    const audit = await org.owner.client.audit.list.query({ accountId: org.accountId });
    const actions = audit.events.map((e) => e.action);
    expect(actions).toContain('organization.two_factor_requirement_changed');
    expect(actions).toContain('user.two_factor_enabled');
    expect(audit.events.find((e) => e.action === 'organization.two_factor_requirement_changed')?.data).toEqual({ required: true });
  });
});
