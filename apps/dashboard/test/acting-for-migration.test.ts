import { afterAll, describe, expect, it } from 'vitest';
import { authenticateKey, generateApiKey, listKeyRequests } from '@mmw/core';
import { openPostgres } from '@mmw/db';
import { createDatabaseBefore } from '@mmw/test-support';

const before = await createDatabaseBefore('_security_review');
const database = openPostgres(before.url, { poolSize: 2 });
afterAll(async () => {
  await database.close();
  await before.drop();
});

describe('the migration of keys that acted for another member', () => {
  it('revokes them, keeps keys people issued for themselves and operator keys, and leaves a key request for the colleague', async () => {
    // Written as the schema before the migration had it: rows of an older schema, not core's.
    const [account] = await before.query("insert into accounts (kind, slug, name) values ('organization', 'm', 'M') returning id");
    const accountId = String(account?.id);
    const [project] = await before.query('insert into projects (account_id, name) values ($1, $2) returning id', [accountId, 'p']);
    const [admin] = await before.query("insert into users (email) values ('admin@m.test') returning id");
    const [bob] = await before.query("insert into users (email) values ('bob@m.test') returning id");
    for (const [user, role] of [[admin, 'owner'], [bob, 'member']] as const) {
      await before.query('insert into memberships (account_id, user_id, role) values ($1, $2, $3)', [accountId, user?.id, role]);
    }
    const keys = { actingFor: generateApiKey(), own: generateApiKey(), operator: generateApiKey() };
    const insertKey = (name: string, key: { hash: string; prefix: string }, userId: unknown, createdBy: unknown) =>
      before.query(
        'insert into api_keys (account_id, project_id, user_id, name, key_hash, prefix, created_by) values ($1, $2, $3, $4, $5, $6, $7)',
        [accountId, project?.id, userId, name, key.hash, key.prefix, createdBy],
      );
    await insertKey('for bob', keys.actingFor, bob?.id, admin?.id);
    await insertKey('bob own', keys.own, bob?.id, bob?.id);
    await insertKey('operator', keys.operator, bob?.id, null);

    await before.migrate();

    await expect(authenticateKey(database.query, keys.actingFor.key)).rejects.toThrow('invalid or revoked API key');
    expect((await authenticateKey(database.query, keys.own.key)).caller.userId).toBe(bob?.id);
    expect((await authenticateKey(database.query, keys.operator.key)).caller.userId).toBe(bob?.id);
    const requests = await listKeyRequests(database.db, { accountId, userId: String(bob?.id), role: 'member', accountKind: 'organization' });
    expect(requests.map((row) => ({ name: row.name, userEmail: row.userEmail, requestedByEmail: row.requestedByEmail }))).toEqual([
      { name: 'for bob', userEmail: 'bob@m.test', requestedByEmail: 'admin@m.test' },
    ]);
    const audit = await before.query("select data from audit_events where action = 'key.revoked'");
    expect(audit).toHaveLength(1);
  });
});
