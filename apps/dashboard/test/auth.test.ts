import { describe, expect, it } from 'vitest';
import { buildDashboardApp } from '../src/index.ts';
import { dashboardClient } from './dashboard-client.ts';
import { errorCode, PASSWORD, signUp, uniqueEmail, useDashboard } from './fixtures.ts';

const f = useDashboard();

describe('sign-up and sign-in', () => {
  it('signs up with a personal account and a session cookie that is HttpOnly, SameSite=Lax, not Secure over http', async () => {
    const { client, jar } = dashboardClient(f.url);
    const email = uniqueEmail('ann');
    const user = await client.auth.signUp.mutate({ email, password: PASSWORD, name: 'Ann' });
    expect(user.email).toBe(email);
    expect(jar.lastSetCookie).toMatch(/^mmw_session=[a-z2-7]{32};/);
    expect(jar.lastSetCookie).toMatch(/HttpOnly/i);
    expect(jar.lastSetCookie).toMatch(/SameSite=Lax/i);
    expect(jar.lastSetCookie).not.toMatch(/Secure/i);
    expect(await client.auth.me.query()).toMatchObject({ id: user.id, email });
    const accounts = await client.accounts.list.query();
    expect(accounts).toEqual([expect.objectContaining({ kind: 'personal', role: 'owner' })]);
  });

  it('keeps only the SHA-256 of the session token', async () => {
    const { client, jar } = dashboardClient(f.url);
    await client.auth.signUp.mutate({ email: uniqueEmail('hash'), password: PASSWORD });
    const token = jar.cookie?.split('=')[1] ?? '';
    const rows = await f.db.query<{ id: string }>('select id from sessions');
    expect(rows.some((row) => row.id === token)).toBe(false);
    const { createHash } = await import('node:crypto');
    expect(rows.some((row) => row.id === createHash('sha256').update(token).digest('hex'))).toBe(true);
  });

  it('refuses a second sign-up with the same email and a short password', async () => {
    const person = await signUp(f, 'dup');
    const other = dashboardClient(f.url).client;
    expect(await errorCode(other.auth.signUp.mutate({ email: person.email, password: PASSWORD }))).toBe('CONFLICT');
    expect(await errorCode(other.auth.signUp.mutate({ email: uniqueEmail('short'), password: 'short' }))).toBe('BAD_REQUEST');
  });

  it('signs in with the right password only, and records sign-ins in the audit log', async () => {
    const person = await signUp(f, 'sign');
    const fresh = dashboardClient(f.url).client;
    expect(await errorCode(fresh.auth.signIn.mutate({ email: person.email, password: 'wrong password!' }))).toBe('UNAUTHORIZED');
    expect(await fresh.auth.me.query()).toBeNull();
    await fresh.auth.signIn.mutate({ email: person.email.toUpperCase(), password: PASSWORD });
    expect((await fresh.auth.me.query())?.id).toBe(person.userId);
    const actions = await f.db.query<{ action: string }>('select action from audit_events where actor_user_id = $1', [person.userId]);
    expect(actions.map((row) => row.action)).toEqual(expect.arrayContaining(['user.sign_in_failed', 'user.signed_in']));
  });

  it('throttles sign-in after five attempts for an email from one address, even with the right password, with state in PostgreSQL', async () => {
    const person = await signUp(f, 'throttle');
    const fresh = dashboardClient(f.url).client;
    for (let i = 0; i < 5; i++) {
      expect(await errorCode(fresh.auth.signIn.mutate({ email: person.email, password: `wrong ${i} password` }))).toBe('UNAUTHORIZED');
    }
    expect(await errorCode(fresh.auth.signIn.mutate({ email: person.email, password: PASSWORD }))).toBe('TOO_MANY_REQUESTS');
    const raw = await fetch(`${f.url}/trpc/auth.signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: f.url, 'x-mmw-csrf': '1' },
      body: JSON.stringify({ email: person.email, password: PASSWORD }),
    });
    expect(raw.status).toBe(429);
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);
    const rows = await f.db.query<{ failures: number; locked: boolean }>(
      "select failures, locked_until > now() as locked from login_attempts where bucket like 'email-address:%' and failures >= 5",
    );
    expect(rows).toEqual([{ failures: 5, locked: true }]);
  });

  it('signs out, and signs out everywhere', async () => {
    const person = await signUp(f, 'everywhere');
    const second = dashboardClient(f.url).client;
    await second.auth.signIn.mutate({ email: person.email, password: PASSWORD });
    const third = dashboardClient(f.url).client;
    await third.auth.signIn.mutate({ email: person.email, password: PASSWORD });

    await third.auth.signOut.mutate({});
    expect(await third.auth.me.query()).toBeNull();
    expect((await second.auth.me.query())?.id).toBe(person.userId);

    expect(await second.auth.signOutEverywhere.mutate({})).toEqual({ endedSessions: 2 });
    expect(await second.auth.me.query()).toBeNull();
    expect(await person.client.auth.me.query()).toBeNull();
    expect(await errorCode(person.client.accounts.list.query())).toBe('UNAUTHORIZED');
  });

  it('changes the password, ending the other sessions but not this one', async () => {
    const person = await signUp(f, 'pw');
    const other = dashboardClient(f.url).client;
    await other.auth.signIn.mutate({ email: person.email, password: PASSWORD });
    expect(
      await errorCode(person.client.auth.changePassword.mutate({ currentPassword: 'not it at all', newPassword: 'a new password' })),
    ).toBe('BAD_REQUEST');
    expect(await person.client.auth.changePassword.mutate({ currentPassword: PASSWORD, newPassword: 'a new password' })).toEqual({
      endedSessions: 1,
    });
    expect((await person.client.auth.me.query())?.id).toBe(person.userId);
    expect(await other.auth.me.query()).toBeNull();
    const again = dashboardClient(f.url).client;
    expect(await errorCode(again.auth.signIn.mutate({ email: person.email, password: PASSWORD }))).toBe('UNAUTHORIZED');
    await again.auth.signIn.mutate({ email: person.email, password: 'a new password' });
  });

  it('refuses the current password as the new one, as a reset does, and changes nothing', async () => {
    const person = await signUp(f, 'samepw');
    const other = dashboardClient(f.url).client;
    await other.auth.signIn.mutate({ email: person.email, password: PASSWORD });
    const [before] = await f.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [person.userId]);
    const refused = person.client.auth.changePassword.mutate({ currentPassword: PASSWORD, newPassword: PASSWORD });
    await expect(refused).rejects.toThrow('the new password must differ from the current one');
    expect(await errorCode(person.client.auth.changePassword.mutate({ currentPassword: PASSWORD, newPassword: PASSWORD }))).toBe(
      'BAD_REQUEST',
    );
    const [after] = await f.db.query<{ password_hash: string }>('select password_hash from users where id = $1', [person.userId]);
    expect(after?.password_hash).toBe(before?.password_hash);
    expect((await other.auth.me.query())?.id).toBe(person.userId);
    const audited = await f.db.query(
      "select 1 from audit_events where action = 'user.password_changed' and target_id = $1",
      [person.userId],
    );
    expect(audited).toEqual([]);
  });

  it('extends a session used in the second half of its life (sliding expiry) and ends an expired one', async () => {
    const person = await signUp(f, 'sliding');
    await f.db.query("update sessions set expires_at = now() + interval '2 days' where user_id = $1", [person.userId]);
    expect((await person.client.auth.me.query())?.id).toBe(person.userId);
    const [renewed] = await f.db.query<{ days: number }>(
      'select extract(day from expires_at - now())::int as days from sessions where user_id = $1',
      [person.userId],
    );
    expect(renewed?.days).toBeGreaterThanOrEqual(29);
    await f.db.query("update sessions set expires_at = now() - interval '1 second' where user_id = $1", [person.userId]);
    expect(await person.client.auth.me.query()).toBeNull();
    expect(await f.db.query('select 1 from sessions where user_id = $1', [person.userId])).toEqual([]);
  });
});

describe('CSRF protection of cookie-authenticated mutations', () => {
  it('refuses a mutation without the custom header or from another origin, and allows queries', async () => {
    const person = await signUp(f, 'csrf');
    const jar = { cookie: undefined as string | undefined, lastSetCookie: undefined as string | undefined };
    await dashboardClient(f.url, { jar }).client.auth.signIn.mutate({ email: person.email, password: PASSWORD });

    const noHeader = dashboardClient(f.url, { jar, csrfHeader: false }).client;
    expect(await errorCode(noHeader.accounts.createOrganization.mutate({ name: 'Evil' }))).toBe('FORBIDDEN');
    const foreign = dashboardClient(f.url, { jar, origin: 'https://evil.example' }).client;
    expect(await errorCode(foreign.accounts.createOrganization.mutate({ name: 'Evil' }))).toBe('FORBIDDEN');
    const noOrigin = dashboardClient(f.url, { jar, origin: null }).client;
    expect(await errorCode(noOrigin.accounts.createOrganization.mutate({ name: 'Evil' }))).toBe('FORBIDDEN');
    expect(await foreign.accounts.list.query()).toHaveLength(1);

    const own = dashboardClient(f.url, { jar }).client;
    await own.accounts.createOrganization.mutate({ name: 'Fine' });
    expect(await own.accounts.list.query()).toHaveLength(2);
  });

  it('also guards sign-in against login CSRF', async () => {
    const person = await signUp(f, 'logincsrf');
    const foreign = dashboardClient(f.url, { origin: 'https://evil.example' }).client;
    expect(await errorCode(foreign.auth.signIn.mutate({ email: person.email, password: PASSWORD }))).toBe('FORBIDDEN');
  });
});

describe('errors', () => {
  it('answers an unknown session with UNAUTHORIZED and hides internal errors', async () => {
    const jar = { cookie: 'mmw_session=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', lastSetCookie: undefined };
    const client = dashboardClient(f.url, { jar }).client;
    expect(await errorCode(client.accounts.list.query())).toBe('UNAUTHORIZED');
  });
});

describe('behind https', () => {
  it('sets Secure cookies and takes mutations only from PUBLIC_URL when it is https', async () => {
    const app = await buildDashboardApp({ db: f.db.database.db, logLevel: 'silent', publicUrl: 'https://mmw.example.com/' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      const url = `http://127.0.0.1:${address.port}`;
      const sameHost = dashboardClient(url).client;
      expect(await errorCode(sameHost.auth.signUp.mutate({ email: uniqueEmail('tls'), password: PASSWORD }))).toBe('FORBIDDEN');
      const { client, jar } = dashboardClient(url, { origin: 'https://mmw.example.com' });
      await client.auth.signUp.mutate({ email: uniqueEmail('tls'), password: PASSWORD });
      expect(jar.lastSetCookie).toMatch(/; Secure/i);
      expect(jar.lastSetCookie).toMatch(/HttpOnly/i);
    } finally {
      await app.close();
    }
  });
});
