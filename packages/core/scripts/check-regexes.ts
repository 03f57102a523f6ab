/**
 * Runs recheck over every regular expression of the Guard and the archivist (each top-level
 * alternative on its own, see verdicts.ts) that has no committed verdict yet, and writes scripts/regex-check/recheck-verdicts.json (verdicts of patterns that no
 * longer exist are dropped). Exits non-zero when any pattern is not safe. `--all` checks every
 * pattern again.
 */
import { collectRegexes, unique } from './regex-check/collect-regexes.ts';
import { committedVerdicts, partsOf, verdictsFor, writeVerdicts, VERDICTS_FILE, type Verdict } from './regex-check/verdicts.ts';

const { regexes, unresolved } = collectRegexes();
// Shortest first: a run cut short has checked as many patterns as it could.
const patterns = unique(regexes).sort((a, b) => a.source.length - b.source.length);
if (process.argv.includes('--all')) writeVerdicts([]);
const started = Date.now();
// Verdicts of parts that no longer exist are dropped when the run ends.
const checkedParts = new Set(patterns.flatMap((regex) => partsOf(regex).map((part) => `${part.flags}/${part.source}`)));
// Written after each pattern, so an interrupted run keeps what it checked.
const sofar: Verdict[] = [...committedVerdicts().values()];
const results = await verdictsFor(patterns, (regex, verdict) => {
  sofar.push(verdict);
  writeVerdicts(sofar);
  console.log(`${verdict.status.padEnd(10)} ${regex.origin} /${verdict.source.slice(0, 80)}/${regex.flags}${verdict.detail ? ` (${verdict.detail})` : ''}`);
});
writeVerdicts(sofar.filter((verdict) => checkedParts.has(`${verdict.flags}/${verdict.source}`)));
const bad = results.filter((result) => result.verdict.status !== 'safe');
console.log(
  `${patterns.length} patterns, ${results.filter((result) => result.fresh).length} checked now in ${((Date.now() - started) / 1000).toFixed(0)} s; ${bad.length} not safe → ${VERDICTS_FILE.pathname}`,
);
for (const path of unresolved) console.log(`not a constant pattern: ${path}`);
if (bad.length > 0 || unresolved.length > 0) process.exitCode = 1;
