import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mmw/test-support';
import { provisionKey } from '../src/accounts/provision.ts';
import { loadConfig } from '../src/config.ts';
import { planById } from '../src/billing/plans.ts';
import type { Caller } from '../src/caller.ts';
import { irregularForms } from '../src/memory/irregular-forms.ts';
import { validateRememberInput } from '../src/memory/record-input.ts';
import { rememberRecord } from '../src/memory/remember.ts';
import { queryTerms } from '../src/memory/query-terms.ts';
import { searchRecords } from '../src/memory/search.ts';
import { withTenant } from '@mmw/db';

/**
 * A query word matches the irregular forms of its lemma (go, went; buy, bought; child, children),
 * which Snowball stemming cannot join, and a closed compound written apart (rollbacks: roll back):
 * through core search on a real database.
 */
let t: TestDatabase;
let caller: Caller;
const plan = planById(loadConfig({ DATABASE_URL: 'postgres://unused' }), 'team');
const ids = new Map<string, string>();

beforeAll(async () => {
  t = await createTestDatabase(2);
  caller = { ...(await provisionKey(t.database.db, { account: 'forms', project: 'main' })), source: 'agent' };
  // Oldest first: each later record is newer, and wins a tie of score.
  for (const content of [
    'To roll back the api, redeploy the previous tag',
    'Mel went camping at the lake last weekend',
    'We buy TLS certs from the vendor every spring',
    'The children started school on Monday',
    'Ana met the new designer for lunch',
    'Mel loves camping',
    'I would love to go to a pottery class',
    'We bought a bigger whiteboard',
    'Ana will meet the auditors in March',
    'Plug in the staging charger before the demo',
  ]) {
    const record = await rememberRecord(t.database, {
      caller,
      plan,
      input: validateRememberInput({ content, workspace: 'forms' }),
      idempotencyKey: undefined,
      countRecords: true,
    });
    ids.set(content, record.id);
  }
  for (const content of ['The negotiation with the vendor ran long', 'Our talky standup bot posts at nine']) {
    await rememberRecord(t.database, {
      caller,
      plan,
      input: validateRememberInput({ content, workspace: 'alternatives' }),
      idempotencyKey: undefined,
      countRecords: true,
    });
  }
});

afterAll(async () => {
  await t.drop();
});

async function search(query: string, workspace = 'forms'): Promise<Array<[string, number | undefined]>> {
  const found = await searchRecords(t.database.db, caller, { query, workspace, limit: 10 });
  return found.result.map((record) => [record.content, record.score]);
}

describe('irregular forms of a word', () => {
  it('come from the WordNet exception lists, both ways, and through a regular inflection', () => {
    expect(irregularForms('went')).toEqual(expect.arrayContaining(['go', 'gone']));
    expect(irregularForms('go')).toEqual(expect.arrayContaining(['went', 'gone']));
    expect(irregularForms('buying')).toEqual(expect.arrayContaining(['buy', 'bought']));
    expect(irregularForms('children')).toEqual(['child']);
    expect(irregularForms('deploy')).toEqual([]);
  });

  it('match in search: a question in one form finds the record in another, above newer partial matches', async () => {
    const found = await search('When did Mel go camping?');
    expect(found[0]).toEqual(['Mel went camping at the lake last weekend', 3]);
    expect(found.slice(1)).toEqual([
      ['Mel loves camping', 2],
      ['I would love to go to a pottery class', 1],
    ]);
  });

  it('match an inflection from its base and a base from its inflection, each as one word', async () => {
    expect(await search('bought certs')).toEqual([
      ['We buy TLS certs from the vendor every spring', 2],
      ['We bought a bigger whiteboard', 1],
    ]);
    expect((await search('buy')).map(([content]) => content)).toEqual([
      'We bought a bigger whiteboard',
      'We buy TLS certs from the vendor every spring',
    ]);
    expect(await search('child school')).toEqual([['The children started school on Monday', 2]]);
    expect(await search('Ana meet')).toEqual([
      ['Ana will meet the auditors in March', 2],
      ['Ana met the new designer for lunch', 2],
    ]);
  });

  it('a term of the same meaning matches in its irregular forms too: purchase, buy, bought', async () => {
    expect((await search('purchase')).map(([content]) => content)).toEqual([
      'We bought a bigger whiteboard',
      'We buy TLS certs from the vendor every spring',
    ]);
  });

  it('a closed compound matches its two words written apart, itself and through a term of the same meaning', async () => {
    expect(await search('api rollbacks')).toEqual([['To roll back the api, redeploy the previous tag', 2]]);
    expect(await search('undo')).toEqual([['To roll back the api, redeploy the previous tag', 1]]);
    // Both words must be there: "back" alone is not a rollback.
    expect(await search('setup')).toEqual([]);
    // Split where the first half is a common word: plugins, plug in.
    expect(await search('plugins')).toEqual([['Plug in the staging charger before the demo', 1]]);
  });

  it('count two forms of one lemma in a query as one word', async () => {
    expect((await search('went go pottery'))[0]).toEqual(['I would love to go to a pottery class', 2]);
    expect((await search('buy bought'))[0]?.[1]).toBe(1);
  });
});

describe('what a query word is read as', () => {
  it('leaves out the alternatives that cannot find more: those under its prefix, and words whose stem is there', async () => {
    const [talk] = await withTenant(t.database.db, caller.accountId, (tx) => queryTerms(tx, ['talk']));
    const alternatives = talk?.tsquery.split(' | ') ?? [];
    expect(alternatives).toEqual(expect.arrayContaining(['talk:*', 'negoti']));
    expect(alternatives).not.toContain('talky');
    expect(alternatives).not.toContain('negotiation');
    // The records they named are found all the same.
    expect((await search('talk', 'alternatives')).map(([content]) => content)).toEqual([
      'Our talky standup bot posts at nine',
      'The negotiation with the vendor ran long',
    ]);
  });
});
