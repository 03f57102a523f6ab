import { completion, startModelStub, type ModelStub } from '@mmw/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { guardRecord } from '../../src/guard/index.ts';
import { createModelJudge, isUncertain } from '../../src/guard/injection/model-judge.ts';
import { judgeInjection, REFUSE_AT } from '../../src/guard/injection/verdict.ts';
import { loadCorpus } from '../../scripts/guard-model/corpus.ts';

/** Corpus records whose built-in score is uncertain (one it refuses, one it lets pass) or certain. */
function pickRecords() {
  const scored = loadCorpus().map((item) => ({ text: item.text, score: judgeInjection(item.text).score }));
  const find = (test: (score: number) => boolean) => {
    const found = scored.find((item) => test(item.score));
    if (found === undefined) throw new Error('the corpus has no such record');
    return found.text;
  };
  return {
    uncertainRefused: find((score) => isUncertain(score) && score >= REFUSE_AT),
    uncertainPassed: find((score) => isUncertain(score) && score < REFUSE_AT),
    certainAttack: find((score) => !isUncertain(score) && score >= REFUSE_AT),
    certainLegit: find((score) => !isUncertain(score) && score < REFUSE_AT),
  };
}

describe('model judge for the uncertain band', () => {
  let stub: ModelStub;
  let fallbacks: string[];
  const records = pickRecords();
  const judge = () =>
    createModelJudge({
      url: stub.url,
      apiKey: 'test-key',
      model: 'stub-model',
      timeoutMs: 300,
      onFallback: (reason) => fallbacks.push(reason),
    });
  const outcome = (content: string) =>
    guardRecord({ content }, { judge: judge() }).then(
      () => 'stored',
      (error: unknown) => (error instanceof Error ? error.message : 'unknown'),
    );

  beforeAll(async () => {
    stub = await startModelStub();
  });
  afterAll(async () => {
    await stub.close();
  });
  beforeEach(() => {
    fallbacks = [];
    stub.requests.length = 0;
  });

  it('lets the model decide an uncertain record, both ways, with the record sent as data', async () => {
    stub.reply(() => completion('{"planted": false}'));
    expect(await outcome(records.uncertainRefused)).toBe('stored');
    stub.reply(() => completion('{"planted": true}'));
    expect(await outcome(records.uncertainPassed)).toMatch(/^Memory rejected by Security Guard: \S/);
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]?.body.messages?.[1]?.content).toContain('<record>');
    expect(fallbacks).toEqual([]);
  });

  it('does not ask the model about a record the built-in verdict is sure of', async () => {
    stub.reply(() => completion('{"planted": false}'));
    expect(await outcome(records.certainAttack)).toMatch(/^Memory rejected by Security Guard: /);
    stub.reply(() => completion('{"planted": true}'));
    expect(await outcome(records.certainLegit)).toBe('stored');
    expect(stub.requests).toHaveLength(0);
  });

  it.each([
    ['a garbage answer', () => completion('the record looks fine to me'), 'malformed'],
    ['an answer of the wrong shape', () => completion('{"planted": "maybe"}'), 'schema'],
    ['an empty answer', () => completion(null), 'refusal'],
    ['a 500', () => ({ status: 500, body: '{"error":"boom"}' }), 'http 500'],
    ['no answer in time', () => 'hang' as const, 'timeout'],
  ])('falls back to the built-in verdict on %s, and counts it', async (_name, reply, reason) => {
    stub.reply(reply);
    expect(await outcome(records.uncertainRefused)).toMatch(/^Memory rejected by Security Guard: /);
    expect(await outcome(records.uncertainPassed)).toBe('stored');
    expect(fallbacks).toEqual([reason, reason]);
  });
});
