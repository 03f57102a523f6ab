/**
 * Phrases that say what kind of statement a record is: a problem report, a fix, a change of an
 * earlier fact, a negation. Matched on lowercase text; deliberately small and readable.
 */
const fixPhrases = [
  /\b(?:hot|bug)?fix(?:es|ed|ing)?\b/,
  /\bpatch(?:ed|es)?\b/,
  /\bresolv(?:e|es|ed|ing)\b/,
  /\bsolved\b/,
  /\bworkaround\b/,
  /\bmitigated\b/,
  /\bclos(?:es|ed)\s+(?:#\d+|[a-z][a-z0-9]*-\d+)/,
  /\b(?:works|working|renders|loads|passes|runs)\s+(?:again|fine|correctly)\b/,
  /\bno longer\s+(?:crash|fail|break|drop|kill|leak|hang|time|error|return)/,
  /\b(?:is|are)\s+(?:done|gone)\b/,
  /\bback\s+(?:under|below|to normal)\b/,
  /\bcan(?:not|'t|’t)\s+happen again\b/,
];

const problemPhrases = [
  /\bbugs?\b/,
  /\berrors?\b/,
  /\bfail(?:s|ed|ing|ures?)?\b/,
  /\bbrok(?:e|en)\b/,
  /\bcrash(?:es|ed|ing)?\b/,
  /\boutages?\b/,
  /\bincidents?\b/,
  /\btime(?:s|d)? out\b|\btimeouts?\b/,
  /\bleaks?\b/,
  /\bregressions?\b/,
  /\bflak(?:y|iness)\b/,
  /\bunreachable\b/,
  /\bis down\b|\bwas down\b|\bwent down\b/,
  /\bwrong\b/,
  /\bdelayed\b|\bslow\b/,
  /\bduplicat(?:e|ed|es)\b/,
  /\b(?:does|do|did)(?:n't|n’t| not) work\b/,
  /\bstuck\b|\bhangs?\b/,
  /\boom(?:killed)?\b|\bout of memory\b/,
  /\bflicker(?:s|ing)?\b|\bglitch(?:es|y)?\b/,
  /\bblank page\b/,
  /\bfills? up\b/,
  /\b(?:users?|customers?) report\b/,
  /\balert:/,
  /\b5\d\d\b/,
];

const changePhrases = [
  /\bnow\b/,
  /\bno longer\b/,
  /\banymore\b/,
  /\binstead\b/,
  /\bswitched\b/,
  /\bmoved\b/,
  /\breplaced\b/,
  /\bmigrated\b/,
  /\bchanged\b/,
  /\brenamed\b/,
  /\b(?:upgraded|downgraded)\b/,
  /\b(?:raised|lowered|increased|decreased|reduced|bumped)\b/,
  /\bpostponed\b/,
  /\b(?:revised|updated)\b/,
  /\btook over\b/,
  /\bdeprecated\b/,
  /\bremoved\b/,
  /\bsince we left\b/,
  /\bfrom now on\b|\bgoing forward\b/,
];

const negationPattern = /\b(?:not|no|never|cannot|none)\b|n't\b|n’t\b|\bno longer\b/;

/** Pairs of words whose swap flips the meaning of an otherwise similar statement. */
const antonyms: ReadonlyArray<readonly [RegExp, RegExp]> = [
  [/\benabled?\b/, /\bdisabled?\b/],
  [/\ballow(?:s|ed)?\b/, /\b(?:forbid(?:s|den)?|disallow(?:s|ed)?|block(?:s|ed)?)\b/],
  [/\brequired\b/, /\boptional\b/],
  [/\bpublic\b/, /\bprivate\b/],
  [/\bsync(?:hronous)?\b/, /\basync(?:hronous)?\b/],
  [/\bon\b/, /\boff\b/],
];

const issueRefPattern = /#(\d+)|\b([A-Z][A-Z0-9]{1,9}-\d+)\b/g;

const anyOf = (patterns: readonly RegExp[], text: string): boolean => patterns.some((p) => p.test(text));

export function hasFixLanguage(text: string): boolean {
  return anyOf(fixPhrases, text.toLowerCase());
}

export function reportsProblem(text: string): boolean {
  return anyOf(problemPhrases, text.toLowerCase());
}

/** Change language in `newer` that `older` does not already contain. */
export function announcesChange(newer: string, older: string): boolean {
  const n = newer.toLowerCase();
  const o = older.toLowerCase();
  return changePhrases.some((p) => p.test(n) && !p.test(o));
}

export function isNegated(text: string): boolean {
  return negationPattern.test(text.toLowerCase());
}

/** Whether one text says "enabled" where the other says "disabled", and so on. */
export function flipsAntonym(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return antonyms.some(
    ([left, right]) =>
      (left.test(x) && right.test(y) && !left.test(y)) || (right.test(x) && left.test(y) && !right.test(y)),
  );
}

/** Issue references such as "#412", "GH-231" or "PAY-311", normalized to "412" / "GH-231". */
export function issueRefs(text: string): Set<string> {
  const refs = new Set<string>();
  for (const match of text.matchAll(issueRefPattern)) {
    const ref = match[1] ?? match[2];
    if (ref !== undefined) refs.add(ref.toUpperCase());
  }
  return refs;
}
