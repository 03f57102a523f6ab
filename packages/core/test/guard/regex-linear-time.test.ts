import { describe, expect, it } from 'vitest';
import { check } from 'recheck';
import { collectRegexes, unique } from '../../scripts/regex-check/collect-regexes.ts';
import { RECHECK_PARAMS, staticVerdict, verdictsFor } from '../../scripts/regex-check/verdicts.ts';

/**
 * recheck over every regular expression of the Guard and the archivist (issue 21): literals and
 * `RegExp(…)` folded from constants, read off the source by the TypeScript parser, so a pattern
 * added later is checked without being listed. A pattern with a committed verdict for the same
 * source, flags, recheck version and parameters is not checked again (see verdicts.ts; refresh
 * with `pnpm --filter @mmw/core run check-regexes`); any other is checked here. recheck is bounded
 * by steps, not time, so its verdicts are the same on a loaded machine.
 */
describe('every regular expression of the Guard and the archivist', () => {
  const { regexes, unresolved } = collectRegexes();

  it('is a constant the check can read', () => {
    expect(unresolved, 'RegExp(…) built from values that are not constants').toEqual([]);
    expect(regexes.length).toBeGreaterThan(200);
    // Patterns built from shared pieces are read whole: the AI-reader signal with its word list.
    const aiAddress = regexes.find((regex) => regex.origin.startsWith('guard/injection/signals.ts') && regex.source.includes('note to|message for'));
    expect(aiAddress?.source).toContain('assistants?');
    expect(aiAddress?.flags).toBe('u');
  });

  // A part recheck has not judged yet (its committed file is refreshed by the script, which can take
  // hours of CPU on the longest word-list patterns) is judged by the static analysis instead, so the
  // test's time does not depend on which patterns changed.
  it('runs in linear time, as recheck (or, for parts it has not judged yet, the static analysis) judges it', async () => {
    const results = await verdictsFor(unique(regexes), undefined, { uncommitted: 'static' });
    const byChecker = new Map<string, number>();
    for (const { verdict } of results) byChecker.set(verdict.checker ?? 'none', (byChecker.get(verdict.checker ?? 'none') ?? 0) + 1);
    console.log(`patterns by the checker of their worst part: ${JSON.stringify(Object.fromEntries(byChecker))}`);
    const notSafe = results
      .filter(({ verdict }) => verdict.status !== 'safe')
      .map(({ regex, verdict }) => `${regex.origin}: /${regex.source.slice(0, 100)}/${regex.flags} is ${verdict.status} (${verdict.detail ?? ''})`);
    expect(notSafe).toEqual([]);
  }, 600_000);

  it('finds a super-linear pattern with the same parameters', async () => {
    // The markdown comment pattern before it stopped at \r: quadratic from every line start.
    const before = String.raw`^[ \t]*\[(?:\/\/|comment|_[\w-]*|[#/]+)\]:[ \t]*(?:(?:#|<>)[ \t]*)?(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')`;
    const verdict = await check(before, 'gm', RECHECK_PARAMS);
    expect(verdict.status).toBe('vulnerable');
  }, 600_000);

  it('the static analysis finds nested and adjacent quantifiers that backtrack', () => {
    expect(staticVerdict({ source: '(?:a+)+b', flags: '' }).status).toBe('vulnerable');
    expect(staticVerdict({ source: String.raw`\s*x?\s*$`, flags: '' }).status).toBe('vulnerable');
    expect(staticVerdict({ source: String.raw`^[a-z]+@[a-z]+$`, flags: '' }).status).toBe('safe');
  });
});
