/**
 * recheck's verdicts on the patterns of the Guard and the archivist, kept in a committed file so the
 * test does not spend an hour of CPU on patterns that have not changed. The file is written by
 * `pnpm --filter @mmw/core run check-regexes`; a verdict counts only for the same source, flags,
 * recheck version and parameters, so a changed pattern or an upgraded checker is checked again.
 * The parameters bound recheck by steps, never by time: a loaded machine gets the same verdicts.
 */
import { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { check, type Diagnostics } from 'recheck';
import { analyse } from 'scslre';
import { z } from 'zod';
import type { CollectedRegex } from './collect-regexes.ts';

export const VERDICTS_FILE = new URL('./recheck-verdicts.json', import.meta.url);

export const RECHECK_PARAMS = {
  checker: 'automaton',
  randomSeed: 0,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  // Recall validation (replaying an attack on the real engine) stays off, as by default: a
  // replay can call a real quadratic pattern safe (the old markdown comment pattern).
  maxIteration: 3,
  maxInitialGenerationSize: 100,
  maxGenerationSize: 50,
  // The automaton checker is exact and quick on bounded gaps such as {12,300}; fuzzing them is slow.
  maxRepeatCount: 2000,
} as const;

const RECHECK_VERSION = z
  .object({ version: z.string() })
  .parse(createRequire(import.meta.url)('recheck/package.json')).version;

const verdictSchema = z.object({
  source: z.string(),
  flags: z.string(),
  status: z.enum(['safe', 'vulnerable', 'unknown']),
  checker: z.string().optional(),
  /** What recheck said when the pattern is not safe: its complexity or its error. */
  detail: z.string().optional(),
});
export type Verdict = z.infer<typeof verdictSchema>;
const fileSchema = z.object({ recheck: z.string(), params: z.string(), verdicts: z.array(verdictSchema) });

const key = (regex: { source: string; flags: string }) => `${regex.flags}/${regex.source}`;
const PARAMS_TEXT = JSON.stringify(RECHECK_PARAMS);

/** The committed verdicts that still apply (same recheck version and parameters), by pattern. */
export function committedVerdicts(): Map<string, Verdict> {
  let parsed: z.infer<typeof fileSchema>;
  try {
    parsed = fileSchema.parse(JSON.parse(readFileSync(VERDICTS_FILE, 'utf8')));
  } catch {
    return new Map();
  }
  if (parsed.recheck !== RECHECK_VERSION || parsed.params !== PARAMS_TEXT) return new Map();
  return new Map(parsed.verdicts.map((verdict) => [key(verdict), verdict]));
}

export function writeVerdicts(verdicts: readonly Verdict[]): void {
  const sorted = [...verdicts].sort((a, b) => key(a).localeCompare(key(b)));
  const file = { recheck: RECHECK_VERSION, params: PARAMS_TEXT, verdicts: sorted };
  writeFileSync(VERDICTS_FILE, `${JSON.stringify(file, null, 1)}\n`);
}

function toVerdict(regex: CollectedRegex, diagnostics: Diagnostics): Verdict {
  const base = { source: regex.source, flags: regex.flags, status: diagnostics.status };
  if (diagnostics.status === 'safe') return { ...base, checker: diagnostics.checker };
  if (diagnostics.status === 'vulnerable') {
    const attack = diagnostics.attack.pattern.slice(0, 120);
    return { ...base, checker: diagnostics.checker, detail: `${diagnostics.complexity.summary}; attack ${attack}` };
  }
  return { ...base, detail: `${diagnostics.error.kind}${'message' in diagnostics.error ? `: ${diagnostics.error.message}` : ''}` };
}

/**
 * The automaton checker first: it is exact, and it finds what a short fuzzing run can miss (the
 * old markdown comment pattern). It does not take lookarounds; those parts are fuzzed.
 */
async function checkPart(part: { source: string; flags: string }): Promise<Diagnostics> {
  const exact = await check(part.source, part.flags, RECHECK_PARAMS);
  if (exact.status !== 'unknown') return exact;
  return check(part.source, part.flags, { ...RECHECK_PARAMS, checker: 'fuzz' });
}

/**
 * The parts recheck is run on: each top-level alternative of an unanchored search on its own. A
 * backtracking search tries the alternatives in turn at every start, so its work is at most the sum
 * of theirs, and each is linear if all are. recheck is far quicker on the parts than on a long
 * alternation of Unicode classes. A pattern with a backreference is checked whole.
 */
export function partsOf(regex: { source: string; flags: string }): Array<{ source: string; flags: string }> {
  const pattern = new RegExpParser().parsePattern(regex.source, 0, regex.source.length, {
    unicode: regex.flags.includes('u'),
    unicodeSets: regex.flags.includes('v'),
  });
  let backreference = false;
  visitRegExpAST(pattern, { onBackreferenceEnter: () => (backreference = true) });
  if (backreference || pattern.alternatives.length < 2) return [{ source: regex.source, flags: regex.flags }];
  return pattern.alternatives.map((alternative) => ({ source: alternative.raw, flags: regex.flags }));
}

const worse = (a: Verdict, b: Verdict): Verdict => {
  const rank = { safe: 0, unknown: 1, vulnerable: 2 } as const;
  return rank[b.status] > rank[a.status] ? b : a;
};

/**
 * The static analysis eslint-plugin-regexp's rules run (scslre): quick on any pattern, for the parts
 * recheck has no committed verdict for yet when a run cannot wait for recheck (the test).
 */
export function staticVerdict(part: { source: string; flags: string }): Verdict {
  const parser = new RegExpParser({ ecmaVersion: 2025 });
  const literal = parser.parseLiteral(`/${part.source}/${part.flags}`);
  const reports = analyse(literal, { maxReports: 1 }).reports;
  const [report] = reports;
  if (report === undefined) return { source: part.source, flags: part.flags, status: 'safe', checker: 'scslre' };
  return { source: part.source, flags: part.flags, status: 'vulnerable', checker: 'scslre', detail: `${report.type} backtracking` };
}

/**
 * The verdict for each pattern: the committed one where it applies; otherwise recheck's own, or,
 * with `uncommitted: 'static'`, the static analysis's (not written to the committed file).
 */
export async function verdictsFor(
  regexes: readonly CollectedRegex[],
  onChecked: (regex: CollectedRegex, verdict: Verdict) => void = () => undefined,
  options: { uncommitted: 'recheck' | 'static' } = { uncommitted: 'recheck' },
): Promise<Array<{ regex: CollectedRegex; verdict: Verdict; fresh: boolean }>> {
  const committed = committedVerdicts();
  const out: Array<{ regex: CollectedRegex; verdict: Verdict; fresh: boolean }> = [];
  for (const regex of regexes) {
    let fresh = false;
    let verdict: Verdict | undefined;
    for (const part of partsOf(regex)) {
      let partVerdict = committed.get(key(part));
      if (!partVerdict) {
        partVerdict =
          options.uncommitted === 'static' ? staticVerdict(part) : toVerdict({ ...regex, ...part }, await checkPart(part));
        committed.set(key(part), partVerdict);
        onChecked(regex, partVerdict);
        fresh = true;
      }
      verdict = verdict ? worse(verdict, partVerdict) : partVerdict;
    }
    if (verdict) out.push({ regex, verdict, fresh });
  }
  return out;
}
