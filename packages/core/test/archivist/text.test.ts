import { describe, expect, it } from 'vitest';
import { isStopword } from '../../src/archivist/stopwords.ts';
import { factKeyWords, stem, terms, tokenize } from '../../src/archivist/text.ts';

describe('tokenize', () => {
  it('lowercases and splits on anything that is not a letter or a digit', () => {
    expect(tokenize('Staging is deployed with `app-staging` (v2.1)!')).toEqual([
      'staging',
      'is',
      'deployed',
      'with',
      'app',
      'staging',
      'v2',
      '1',
    ]);
  });

  it('keeps letters and digits of any script together', () => {
    expect(tokenize('Größe: 10 ГБ; 東京の deploy—ok; café')).toEqual([
      'größe',
      '10',
      'гб',
      '東京の',
      'deploy',
      'ok',
      'café',
    ]);
  });

  it('normalizes compatibility forms such as full-width letters', () => {
    expect(tokenize('ＤＥＰＬＯＹ ﬁx')).toEqual(['deploy', 'fix']);
  });

  it('gives nothing for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -- ... !!')).toEqual([]);
  });
});

describe('stem', () => {
  it('gives one stem to a word family', () => {
    const family = ['deploy', 'deploys', 'deployed', 'deploying', 'deployment', 'deployments'];
    expect(new Set(family.map(stem)).size).toBe(1);
    expect(stem('databases')).toBe(stem('database'));
    expect(stem('policies')).toBe(stem('policy'));
    expect(stem('retried')).toBe(stem('retry'));
    expect(stem('configured')).toBe(stem('configuration'));
  });

  it('keeps different words apart', () => {
    expect(stem('deploy')).not.toBe(stem('depot'));
    expect(stem('stage')).not.toBe(stem('status'));
  });

  it('leaves short words, words with digits and other scripts alone', () => {
    expect(stem('api')).toBe('api');
    expect(stem('k8s')).toBe('k8s');
    expect(stem('v2')).toBe('v2');
    expect(stem('größe')).toBe('größe');
  });
});

describe('terms', () => {
  it('drops stopwords, lone letters and short bare numbers, and stems the rest', () => {
    expect(terms('We deployed the API to prod on port 5432 in 2 minutes')).toEqual([
      stem('deployed'),
      'api',
      'prod',
      'port',
      '5432',
      stem('minutes'),
    ]);
  });

  it('knows a small English stopword list', () => {
    for (const word of ['the', 'and', 'is', 'we', 'what', 'how']) expect(isStopword(word)).toBe(true);
    for (const word of ['deploy', 'down', 'new', 'off']) expect(isStopword(word)).toBe(false);
  });
});

describe('factKeyWords', () => {
  it('splits a fact_key on - _ . and other separators', () => {
    expect(factKeyWords('deploy-staging_host.v2')).toEqual(['deploy', 'staging', 'host', 'v2']);
    expect(factKeyWords(null)).toEqual([]);
  });
});
