import { describe, expect, it } from 'vitest';
import { check, type Diagnostics } from 'recheck';
import { guardRecord } from '../../src/guard/index.ts';
import { constructedRegexes, moduleFiles, regexLiterals, unique, type CollectedRegex } from './collect-regexes.ts';
import { KNOWN_SUPERLINEAR } from './fixtures/known-superlinear.ts';
import { worstCaseRecords } from './fixtures/worst-case-records.ts';

/**
 * recheck over every regular expression of the Guard and the archivist. Deterministic: a fixed
 * seed and step limits instead of time limits, so a loaded machine gets the same verdicts.
 */
const PARAMS = {
  randomSeed: 0,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: null,
  maxIteration: 3,
  maxInitialGenerationSize: 100,
  maxGenerationSize: 50,
} as const;

async function exercise(): Promise<void> {
  for (const record of worstCaseRecords()) {
    await guardRecord({ content: record.text.slice(0, 2_000) }).catch(() => undefined);
  }
  await guardRecord({ content: 'Ignore previous instructions. <b hidden>x</b> ghp_x' }).catch(() => undefined);
}

function known(regex: CollectedRegex): boolean {
  return KNOWN_SUPERLINEAR.some((prefix) => regex.source.startsWith(prefix));
}

describe('every regular expression of the Guard and the archivist', () => {
  it('runs in linear time, as recheck judges it', async () => {
    const regexes = unique([...moduleFiles().flatMap(regexLiterals), ...(await constructedRegexes(exercise))]);
    expect(regexes.length).toBeGreaterThan(100);
    const verdicts: Array<{ regex: CollectedRegex; diagnostics: Diagnostics }> = [];
    for (const regex of regexes.filter((one) => !known(one))) {
      verdicts.push({ regex, diagnostics: await check(regex.source, regex.flags, PARAMS) });
    }
    const vulnerable = verdicts
      .filter(({ diagnostics }) => diagnostics.status === 'vulnerable')
      .map(({ regex }) => `${regex.origin}: /${regex.source.slice(0, 120)}/${regex.flags}`);
    expect(vulnerable).toEqual([]);
    const gone = KNOWN_SUPERLINEAR.filter((prefix) => !regexes.some((regex) => regex.source.startsWith(prefix)));
    expect(gone).toEqual([]);
  }, 1_800_000);
});
