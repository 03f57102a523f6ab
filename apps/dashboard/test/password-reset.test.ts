import { describe, expect, it } from 'vitest';
import { resetPassword } from '@mmw/core';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, PASSWORD, signUp, uniqueEmail, useDashboard } from './fixtures.ts';

const f = useDashboard();

function mailedResetToken(email: string): string {
  return f.mail.lastLink(email, '/reset-password/').split('/reset-password/')[1] ?? '';
}

describe('forgot password: a reset link through the mail transport', () => {
  it('answers the same for an unknown address and mails nothing', async () => {
    const { client } = dashboardClient(f.url);
    const before = f.mail.mails.length;
    expect(await client.auth.requestPasswordReset.mutate({ email: uniqueEmail('nobody') })).toEqual({ ok: true });
    expect(f.mail.mails.length).toBe(before);
  });

  it('mails a one-use link; the new password works, the old one and every session end', async () => {
    const person = await signUp(f, 'forgetful');
    const other = dashboardClient(f.url).client;
    await other.auth.signIn.mutate({ email: person.email, password: PASSWORD });
    const { client } = dashboardClient(f.url);
    expect(await client.auth.requestPasswordReset.mutate({ email: person.email.toUpperCase() })).toEqual({ ok: true });
    const token = mailedResetToken(person.email);
    expect(token).toMatch(/^[a-z2-7]{32}$/);
    const [stored] = await f.db.query<{ token_hash: string }>('select token_hash from password_resets where user_id = $1', [person.userId]);
    expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored?.token_hash).not.toContain(token);

    expect(await client.auth.resetPassword.mutate({ token, newPassword: 'a brand new passphrase' })).toEqual({ email: person.email });
    expect(await person.client.auth.me.query()).toBeNull();
    expect(await other.auth.me.query()).toBeNull();
    expect(await errorCode(client.auth.signIn.mutate({ email: person.email, password: PASSWORD }))).toBe('UNAUTHORIZED');
    await client.auth.signIn.mutate({ email: person.email, password: 'a brand new passphrase' });
    expect(await errorCode(client.auth.resetPassword.mutate({ token, newPassword: 'yet another passphrase' }))).toBe('NOT_FOUND');
  });

  it('refuses the current password as the new one and keeps the link usable', async () => {
    const person = await signUp(f, 'samepass');
    const { client } = dashboardClient(f.url);
    await client.auth.requestPasswordReset.mutate({ email: person.email });
    const token = mailedResetToken(person.email);
    try {
      await client.auth.resetPassword.mutate({ token, newPassword: PASSWORD });
      expect.unreachable('the same password was accepted');
    } catch (error) {
      expect((error as Error).message).toBe('the new password must differ from the current one');
    }
    expect(await errorCode(client.auth.resetPassword.mutate({ token, newPassword: 'short' }))).toBe('BAD_REQUEST');
    await client.auth.resetPassword.mutate({ token, newPassword: 'different and long enough' });
  });

  it('refuses a link past its 30 minutes and a guessed token', async () => {
    const person = await signUp(f, 'late');
    const { client } = dashboardClient(f.url);
    await client.auth.requestPasswordReset.mutate({ email: person.email });
    const token = mailedResetToken(person.email);
    const later = new Date(Date.now() + 31 * 60 * 1000);
    await expect(resetPassword(f.db.database.db, { token, newPassword: 'too late for this one' }, later)).rejects.toThrow(/expired/);
    expect(await errorCode(client.auth.resetPassword.mutate({ token: 'a'.repeat(32), newPassword: 'guessing is futile' }))).toBe('NOT_FOUND');
    // An expired link is spent too.
    expect(await errorCode(client.auth.resetPassword.mutate({ token, newPassword: 'too late for this one' }))).toBe('NOT_FOUND');
  });

  it('throttles requests for one email address', async () => {
    const email = uniqueEmail('flooded');
    const { client } = dashboardClient(f.url);
    const codes: string[] = [];
    for (let i = 0; i < 7; i += 1) codes.push(await errorCode(client.auth.requestPasswordReset.mutate({ email })));
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('no error'));
    expect(codes.at(-1)).toBe('TOO_MANY_REQUESTS');
  });
});
