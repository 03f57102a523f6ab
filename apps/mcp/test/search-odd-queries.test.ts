import { beforeAll, describe, expect, it } from 'vitest';
import { useMcp, type Rec, type SearchResult } from './fixtures.ts';

const f = useMcp('odd-queries', 'main');
const ws = 'odd';
let deploy: Rec;
let kanji: Rec;

beforeAll(async () => {
  deploy = await f.client.ok<Rec>('remember', { workspace: ws, content: 'Staging deployments retry three times' });
  kanji = await f.client.ok<Rec>('remember', { workspace: ws, content: 'デプロイ手順は 東京 リージョン の runbook にある; развертывание идёт ночью 🚀' });
  await f.client.ok<Rec>('remember', { workspace: ws, content: 'The cat sat on the mat' });
});

const search = (query: string) => f.client.ok<SearchResult>('search', { query, workspace: ws, limit: 10 });

describe('search with odd queries, through an MCP client', () => {
  it('answers a query of 2,000 characters', async () => {
    const long = 'how did we deploy staging and why did it retry '.repeat(60).slice(0, 2_000);
    expect(long).toHaveLength(2_000);
    const found = await search(long);
    expect(found.result[0]?.id).toBe(deploy.id);
  });

  it('answers a query of 2,000 characters of distinct words, each with many forms and synonyms', async () => {
    const words = 'young cats go went make made take took run ran get got bring brought keep kept find found give gave see saw buy bought';
    const long = Array.from({ length: 200 }, (_, i) => `${words.split(' ')[i % 24] ?? ''}${Math.floor(i / 24) || ''}`)
      .join(' ')
      .padEnd(2_000, ' set')
      .slice(0, 2_000);
    expect(long).toHaveLength(2_000);
    const found = await search(long);
    expect(found.result[0]?.content).toBe('The cat sat on the mat');
  });

  it('refuses a query longer than 2,000 characters with a clear error, not a failure', async () => {
    const outcome = await f.client.call('search', { query: 'x'.repeat(2_001), workspace: ws });
    expect(outcome.isError).toBe(true);
    expect(outcome.text).toContain('query is too long');
  });

  it('answers a query made only of stopwords, keeping them as its words', async () => {
    const found = await search('the on');
    expect(found.result.map((r) => r.content)).toContain('The cat sat on the mat');
    expect(found.result.every((r) => (r.score ?? 0) >= 1)).toBe(true);
  });

  it('answers a query of only punctuation, or only emoji, with the latest records, as an empty query', async () => {
    for (const query of ['?!... --- ;;; ()', '🚀🔥👍', '\u200b\u200d']) {
      const found = await search(query);
      expect(found.result).toHaveLength(3);
    }
  });

  it('reads the words of a query among emoji and punctuation', async () => {
    const found = await search('🚀 staging… deployments?! 🔥');
    expect(found.result.map((r) => [r.id, r.score])).toEqual([[deploy.id, 2]]);
  });

  it('answers queries in other scripts and in mixed scripts', async () => {
    expect((await search('東京')).result.map((r) => r.id)).toEqual([kanji.id]);
    expect((await search('развертывание staging')).result.map((r) => r.id).sort()).toEqual([deploy.id, kanji.id].sort());
    const mixed = await search('abcдеф 日本x ½ ǅ İstanbul ß');
    expect(Array.isArray(mixed.result)).toBe(true);
  });

  it('stores and searches words at the longest a word index holds, and past it', async () => {
    // 682 CJK characters are 2,046 bytes: under PostgreSQL's 2,047 for a word, over it with the
    // workspace's tag; 700 are over it either way. Neither fails, in a record or in a query.
    for (const length of [682, 700]) {
      const word = '日'.repeat(length);
      const kept = await f.client.ok<Rec>('remember', { workspace: 'long-words', content: `${word} runbook ${length}` });
      const found = await f.client.ok<SearchResult>('search', { query: `${word} runbook`, workspace: 'long-words' });
      expect(found.result.map((r) => r.id)).toContain(kept.id);
      const alone = await f.client.ok<SearchResult>('search', { query: word, workspace: 'long-words' });
      expect(Array.isArray(alone.result)).toBe(true);
    }
  });

  it('ignores stopwords when the query has other words', async () => {
    const found = await search('what are the staging deployments?');
    expect(found.result.map((r) => [r.id, r.score])).toEqual([[deploy.id, 2]]);
  });

  it('matches another form of a word by its stem', async () => {
    const found = await search('retrying deploy');
    expect(found.result.map((r) => [r.id, r.score])).toEqual([[deploy.id, 2]]);
  });

  it('matches a term of the same meaning: the domain table and WordNet', async () => {
    const bought = await f.client.ok<Rec>('remember', { workspace: 'meaning', content: 'We buy TLS certs from the vendor' });
    await f.client.ok<Rec>('remember', { workspace: 'meaning', content: 'Lunch is at noon' });
    const found = await f.client.ok<SearchResult>('search', { query: 'purchase certificate', workspace: 'meaning' });
    expect(found.result.map((r) => [r.id, r.score])).toEqual([[bought.id, 2]]);
  });
});
