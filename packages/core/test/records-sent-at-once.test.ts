import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSqlOn, failedRequirement, openPostgres, withTenant } from '@mmw/db';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import type { Caller } from '../src/caller.ts';
import { validateRememberInput, type RememberInput } from '../src/memory/record-input.ts';
import { recordsSentAtOnce } from '../src/memory/remember.ts';
import { findOrCreateWorkspace } from '../src/memory/workspaces.ts';

/**
 * The records of a transaction written whole: those that need only their insert go in one
 * statement (remember.ts, recordsSentAtOnce). On a real database: what each caller gets back and
 * what is stored, for callers of two projects of one account.
 */
let t: TestDatabase;
let main: Caller;
let other: Caller;

const callerOf = (key: { accountId: string; projectId: string; userId: string; keyId: string }): Caller => ({
  accountId: key.accountId,
  projectId: key.projectId,
  userId: key.userId,
  keyId: key.keyId,
  source: 'agent',
});

beforeAll(async () => {
  t = await createTestDatabase(4);
  main = callerOf(await provisionKey(t.database.db, { account: 'together', project: 'main' }));
  other = callerOf(
    await provisionKey(t.database.db, {
      account: 'together',
      project: 'other',
      member: 'second@together.local',
    }),
  );
  // Every project has its own default workspace; a named one belongs to one project of the account.
  for (const [caller, name] of [
    [main, 'default'],
    [main, 'notes'],
    [other, 'default'],
  ] as const)
    await withTenant(t.database.db, caller.accountId, (tx) => findOrCreateWorkspace(tx, caller, name));
});

afterAll(async () => {
  await t.drop();
});

const record = (caller: Caller, input: RememberInput) => ({
  caller,
  recordId: randomUUID(),
  input: validateRememberInput(input),
});

interface StoredRow {
  id: string;
  project_id: string;
  author_user_id: string;
  key_id: string;
  content: string;
  source_id: string | null;
  fact_key: string | null;
  created_at: string;
  updated_at: string;
  txid: string;
}

async function stored(ids: string[]): Promise<StoredRow[]> {
  return withTenant(t.database.db, main.accountId, async (tx) => {
    const { rows } = await executeSqlOn(tx)(
      `select id, project_id, author_user_id, key_id, content, source_id, fact_key, created_at, updated_at,
              xmin::text as txid
         from records where id = any($1::uuid[])`,
      [ids],
    );
    return (rows as unknown as StoredRow[]).sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
  });
}

describe('records sent at once', () => {
  it('stores the records of two projects in one statement, each answered with its own, in the order given', async () => {
    const records = [
      record(main, { workspace: 'notes', content: 'first plain note', source_id: 'docs/a.md' }),
      record(other, { workspace: 'default', content: 'second plain note, other project', confidence: 0.9 }),
      record(main, { workspace: 'notes', content: 'a versioned note', fact_key: 'release-day' }),
      record(main, { workspace: 'default', content: 'third plain note', scope: 'shared' }),
    ];
    const answers = await withTenant(t.database.db, main.accountId, (tx) =>
      Promise.all(recordsSentAtOnce(tx, records)),
    );

    expect(answers.map((answer) => answer.id)).toEqual(records.map((one) => one.recordId));
    expect(answers.map((answer) => [answer.workspace, answer.content])).toEqual(
      records.map((one) => [one.input.workspace, one.input.content]),
    );
    expect(answers[1]?.confidence).toBe(0.9);
    expect(answers[2]?.fact_key).toBe('release-day');
    expect(answers[3]?.scope).toBe('shared');

    const rows = await stored(records.map((one) => one.recordId));
    expect(rows.map((row) => [row.project_id, row.author_user_id, row.key_id])).toEqual(
      records.map(({ caller }) => [caller.projectId, caller.userId, caller.keyId]),
    );
    expect(rows[0]?.source_id).toBe('docs/a.md');
    expect(new Set(rows.map((row) => row.txid)).size).toBe(1);
    for (const row of rows) expect(row.updated_at).toEqual(row.created_at);
    // The plain records, stored together, each took its own moment, in the order given.
    // Compared as PostgreSQL gives them (microseconds; the same time zone for all).
    const plain = [rows[0], rows[1], rows[3]].map((row) => row?.created_at ?? '');
    expect(new Set(plain).size).toBe(3);
    expect([...plain].sort()).toEqual(plain);
  });

  // A workspace never written, and one of the account's that belongs to the other project.
  it.each(['absent', 'notes'])(
    "fails the whole statement, and the transaction, when a record's workspace is not its project's: %s",
    async (workspace) => {
      const records = [
        record(main, { workspace: 'notes', content: 'kept only if all are' }),
        record(other, { workspace, content: 'nowhere to go' }),
      ];
      const failure = await withTenant(t.database.db, main.accountId, (tx) =>
        Promise.all(recordsSentAtOnce(tx, records)),
      ).catch((error: unknown) => error);

      expect(failedRequirement(failure)).toBe('mmw:workspace_missing');
      expect(await stored(records.map((one) => one.recordId))).toEqual([]);
    },
  );

  it('stores a lone surrogate as U+FFFD with the others, as a record stored alone has it', async () => {
    const records = [
      record(main, { workspace: 'notes', content: 'half of a pair \ud83d here', scope: 'team \udc00' }),
      record(main, { workspace: 'notes', content: 'a whole one 🚀 here' }),
    ];
    const answers = await withTenant(t.database.db, main.accountId, (tx) =>
      Promise.all(recordsSentAtOnce(tx, records)),
    );

    const rows = await stored(records.map((one) => one.recordId));
    expect(rows.map((row) => row.content)).toEqual(['half of a pair \ufffd here', 'a whole one 🚀 here']);
    expect(answers.map((answer) => answer.content)).toEqual(rows.map((row) => row.content));
    expect(answers[0]?.scope).toBe('team \ufffd');
    expect(new Set(rows.map((row) => row.txid)).size).toBe(1);
  });

  it('keeps its prepared plan, instead of planning the statement again for every transaction', async () => {
    // One connection, so every transaction meets the same prepared statement.
    const one = openPostgres(t.url, 1);
    try {
      for (let i = 0; i < 8; i++) {
        const records = [
          record(main, { workspace: 'notes', content: `plan kept, first of ${i}` }),
          record(main, { workspace: 'default', content: `plan kept, second of ${i}` }),
        ];
        await withTenant(one.db, main.accountId, (tx) => Promise.all(recordsSentAtOnce(tx, records)));
      }
      const plans = await one.executeSql(
        `select generic_plans, custom_plans from pg_prepared_statements where statement like '%insert into records%'`,
      );
      // PostgreSQL plans the first five runs for their values, then keeps the generic plan when it
      // is no dearer than those.
      expect(plans.rows).toEqual([{ generic_plans: '3', custom_plans: '5' }]);
    } finally {
      await one.close();
    }
  });
});
