import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres, users, withSessionHash, withTenant, withUser, withUserEmail, type Db } from '@mmw/db';
import { dashboardClient } from './dashboard-client.ts';
import { organizationWith, PASSWORD, signUp, useDashboard } from './fixtures.ts';

// Row-level security on users (issue 24): as the application role, a transaction sees the users it
// was opened for and no one else, whatever a statement forgets to say.
const f = useDashboard();

const emailsVisible = async (db: Db) => (await db.select({ email: users.email }).from(users)).map((row) => row.email).sort();

describe('users under row-level security, as mmw_app', () => {
  it('a tenant sees its members, the signed-in user themselves, an email lookup that one address, and nothing else', async () => {
    const org = await organizationWith(f, 'rls-users', [{ name: 'carol', role: 'member' }]);
    const carol = org.members.carol;
    if (!carol) throw new Error('no carol');
    const bob = await signUp(f, 'bob-outsider');
    const db = f.db.database.db;

    // The organization's transaction: its owner and Carol; not Bob, who belongs to another account.
    expect(await withTenant(db, org.accountId, emailsVisible)).toEqual([carol.email, org.owner.email].sort());
    // Bob's own personal account: Bob alone.
    expect(await withTenant(db, bob.personalAccountId, emailsVisible)).toEqual([bob.email]);
    // Signed in as Carol, before a tenant is chosen: Carol alone.
    expect(await withUser(db, carol.userId, emailsVisible)).toEqual([carol.email]);
    // A sign-in by email: that address alone; an unknown one, nobody.
    expect(await withUserEmail(db, bob.email, emailsVisible)).toEqual([bob.email]);
    expect(await withUserEmail(db, 'nobody@example.com', emailsVisible)).toEqual([]);
    // A session hash nobody holds shows nobody; no context at all shows nobody either.
    expect(await withSessionHash(db, 'not-a-session', emailsVisible)).toEqual([]);
    expect(await emailsVisible(db)).toEqual([]);

    // Nor can a tenant's transaction change a person's row, even a member's.
    const changed = await withTenant(db, org.accountId, (tx) =>
      tx.update(users).set({ name: 'taken over' }).returning({ id: users.id }),
    );
    expect(changed).toEqual([]);
    const [row] = await f.db.query<{ name: string | null }>('select name from users where id = $1', [carol.userId]);
    expect(row?.name).not.toBe('taken over');
  });

  it('sign-up, sign-in, a password change and a reset request still work through the dashboard', async () => {
    const dana = await signUp(f, 'dana');
    const { client } = dashboardClient(f.url);
    await client.auth.signIn.mutate({ email: dana.email, password: PASSWORD });
    expect((await client.auth.me.query())?.email).toBe(dana.email);
    await client.auth.changePassword.mutate({ currentPassword: PASSWORD, newPassword: `${PASSWORD} again` });
    const again = dashboardClient(f.url).client;
    await again.auth.signIn.mutate({ email: dana.email, password: `${PASSWORD} again` });
    expect((await again.auth.me.query())?.email).toBe(dana.email);
    await again.auth.requestPasswordReset.mutate({ email: dana.email });
    expect(f.mail.lastLink(dana.email, '/reset-password/')).toContain('/reset-password/');
  });
});

describe("the application's own login role", () => {
  // What production does (infra/compose/app-role.sh): a login role that is a member of mmw_app,
  // neither superuser nor owner, without BYPASSRLS. Leaving mmw_app then leaves it where it was.
  const role = `mmw_login_${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    await f.db.query(`drop owned by ${role}`);
    await f.db.query(`drop role if exists ${role}`);
  });

  it('cannot step out of row-level security by leaving mmw_app, nor become a superuser', async () => {
    await signUp(f, 'erin');
    await f.db.query(`create role ${role} login nosuperuser nobypassrls nocreatedb nocreaterole inherit`);
    await f.db.query(`grant mmw_app to ${role}`);
    await f.db.query(`grant connect on database ${f.db.name} to ${role}`);
    const url = new URL(f.db.url);
    url.username = role;
    url.password = '';
    // The app's own pool, as a server opens it: each connection starts as mmw_app.
    const database = openPostgres(url.toString(), { poolSize: 1 });
    try {
      const pool = database.pool;
      if (!pool) throw new Error('a pool is needed');
      const client = await pool.connect();
      try {
        await client.query('begin');
        // Back to the session's own role (RESET ROLE returns to the startup option's mmw_app).
        await client.query('set role none');
        const [who] = (await client.query<{ user: string }>('select current_user as user')).rows;
        expect(who?.user).toBe(role);
        for (const table of ['users', 'accounts', 'memberships', 'records', 'api_keys', 'sessions']) {
          const { rows } = await client.query<{ n: string }>(`select count(*)::text as n from ${table}`);
          expect(rows[0]?.n, table).toBe('0');
        }
        await client.query('rollback');
        await expect(client.query('set role postgres')).rejects.toThrow(/permission denied/);
      } finally {
        client.release();
      }
      // The superuser, for contrast, sees the people signed up above.
      const [all] = await f.db.query<{ n: string }>('select count(*)::text as n from users');
      expect(Number(all?.n)).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });
});
