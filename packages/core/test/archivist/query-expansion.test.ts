import { describe, expect, it } from 'vitest';
import {
  createBuiltInExpander,
  isAbstractQuery,
  type ExpansionContext,
} from '../../src/archivist/query-expansion.ts';

const ctx: ExpansionContext = {
  vocabulary: [
    { content: 'Staging is deployed with the systemd unit app-staging.', factKey: 'deploy-staging' },
    {
      content: 'Production deployments go through the release pipeline and need an approval.',
      factKey: 'deploy-prod',
    },
    { content: 'The staging deploy posts to the #deploys channel when it finishes.', factKey: null },
    {
      content: 'Rolling back staging: stop app-staging and start the previous tag.',
      factKey: 'rollback-staging',
    },
    { content: 'The primary Postgres database runs on db-primary-1.internal.', factKey: 'db_primary.host' },
    { content: 'Nightly Postgres backups are kept for 30 days in S3.', factKey: 'db-backups' },
    { content: 'The user prefers answers in short bullet points.', factKey: 'pref-answers' },
    { content: 'Grafana alerts page the on-call engineer through PagerDuty.', factKey: null },
  ],
};

const expander = createBuiltInExpander();

describe('built-in query expansion', () => {
  it('adds the forms of a query word that occur in the workspace', async () => {
    const terms = await expander.expand(['deploy'], ctx);
    expect(terms).toEqual(expect.arrayContaining(['deployed', 'deployments', 'deploys']));
  });

  it('adds synonyms from the domain table', async () => {
    expect(await expander.expand(['db'], ctx)).toEqual(
      expect.arrayContaining(['database', 'postgres', 'pg']),
    );
    expect(await expander.expand(['k8s'], ctx)).toEqual(expect.arrayContaining(['kubernetes']));
    expect(await expander.expand(['auth'], ctx)).toEqual(expect.arrayContaining(['authentication', 'login']));
    expect(await expander.expand(['prod'], ctx)).toEqual(expect.arrayContaining(['production']));
    expect(await expander.expand(['deploy'], ctx)).toEqual(expect.arrayContaining(['release', 'rollout']));
  });

  it('adds words and fact_key parts that co-occur with the query in the workspace', async () => {
    const terms = await expander.expand(['staging'], ctx);
    expect(terms).toEqual(expect.arrayContaining(['app', 'deploy']));
    expect(await expander.expand(['primary'], ctx)).toEqual(expect.arrayContaining(['host']));
  });

  it('returns lowercase single new words, at most 12, never the query words', async () => {
    for (const query of [
      ['Deploy', 'staging'],
      ['DB'],
      ['how', 'do', 'we', 'deploy'],
      ['overview'],
      ['zzz'],
    ]) {
      const terms = await expander.expand(query, ctx);
      expect(terms.length).toBeLessThanOrEqual(12);
      expect(new Set(terms).size).toBe(terms.length);
      for (const term of terms) {
        expect(term).toMatch(/^[\p{Ll}\p{N}]+$/u);
        expect(query.map((word) => word.toLowerCase())).not.toContain(term);
      }
    }
  });

  it('gives an abstract query the main topics of the workspace', async () => {
    const terms = await expander.expand(['what', 'is', 'the', 'setup'], ctx);
    expect(terms).toEqual(expect.arrayContaining(['staging', 'deploy', 'db']));
    expect(terms).not.toContain('user');
  });

  it('expands nothing from nothing', async () => {
    expect(await expander.expand(['zzz'], ctx)).toEqual([]);
    expect(await expander.expand(['deploy'], { vocabulary: [] })).toEqual(
      expect.arrayContaining(['release', 'rollout']),
    );
    expect(await expander.expand([], { vocabulary: [] })).toEqual([]);
  });
});

describe('isAbstractQuery', () => {
  it('is true for queries of stopwords and generic words', () => {
    for (const query of [
      ['how'],
      ['what', 'is', 'the', 'setup'],
      ['give', 'me', 'an', 'overview'],
      ['info'],
      ['stuff'],
      ['everything'],
      ["what's", 'new?'],
    ]) {
      expect(isAbstractQuery(query), query.join(' ')).toBe(true);
    }
  });

  it('is false when any word names a topic, and for an empty query', () => {
    for (const query of [
      ['how', 'do', 'we', 'deploy'],
      ['postgres', 'setup'],
      ['k8s'],
      ['what', 'is', 'the', 'staging', 'url'],
      [],
    ]) {
      expect(isAbstractQuery(query), query.join(' ')).toBe(false);
    }
  });
});
