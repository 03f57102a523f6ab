/**
 * Finds literal values assigned to secret-named keys: `DB_PASSWORD=...`, `api_secret: "..."`,
 * `"token": "..."`. Only the value is redacted, and only when it looks like a real secret: long
 * enough, random enough (an entropy floor), and not a placeholder, path, identifier or prose.
 */
import type { SecretFinding } from './secret-finding.ts';

/**
 * A secret-named key followed by an assignment: the keyword ends the key ("DB_PASSWORD=",
 * "apiSecret:"), so the match starts at the keyword and the engine scans for keywords, not keys.
 */
const KEY_AND_CONNECTOR =
  /(?:passwords?|passwd|passphrase|pwd|secrets?|tokens?|api[_-]?keys?|apikey|access[_-]?keys?|auth[_-]?keys?|private[_-]?keys?|client[_-]?secret|credentials?|(?<![a-z])pass)["'`]?[ \t]*(?::=|=>|->|:|=)[ \t]*/gi;
/** The value right after the connector: quoted, or a run without spaces and brackets. */
const VALUE = /"([^"\n]{1,300})"|'([^'\n]{1,300})'|`([^`\n]{1,300})`|([^\s,;'"`<>(){}[\]]{1,300})/y;

/** Values that stand for a secret without being one. */
const PLACEHOLDER =
  /^(?:[$<{%!*#]|\.{3}|x{3,}|\*{3,}|(?:none|null|nil|undefined|true|false|yes|no|empty|required|optional|changeme|change_me|example|placeholder|redacted|secret|password|string|number|boolean|todo|tbd|n\/a)$|your[_-]|\[redacted)/i;
/** `os.environ`, `settings.API_KEY`, `env.TOKEN`: code that reads a secret, not the secret. */
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const PATH = /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)/;

const MIN_LENGTH = 6;
const ENTROPY_FLOOR = 2.5;
const SINGLE_CLASS_MIN_LENGTH = 16;
const SINGLE_CLASS_ENTROPY_FLOOR = 3;

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...value].length;
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(value)).length;
}

/** Prose has spaces between short words; a passphrase in quotes may too, but then it is long. */
function isProse(value: string): boolean {
  const words = value.trim().split(/\s+/);
  return words.length >= 3 && words.every((word) => /^[A-Za-z'’.,!?-]+$/.test(word));
}

export function looksLikeSecretValue(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < MIN_LENGTH) return false;
  if (PLACEHOLDER.test(trimmed) || DOTTED_IDENTIFIER.test(trimmed) || PATH.test(trimmed)) return false;
  if (isProse(trimmed)) return false;
  const entropy = shannonEntropy(trimmed);
  if (entropy < ENTROPY_FLOOR) return false;
  if (characterClasses(trimmed) >= 2) return true;
  return trimmed.length >= SINGLE_CLASS_MIN_LENGTH && entropy >= SINGLE_CLASS_ENTROPY_FLOOR;
}

/** A password stated in prose: "the prod database password is …", "pw is …", "password for db: …". */
const PROSE_PASSWORD =
  /\b(?:password|passwd|passphrase|pw|pwd)(?: (?:for|of|on) [^\s.,;:]{1,40})?(?: is now| is| was|[ \t]?:)[ \t]+["'`]?([^\s"'`,;]{6,200})/gi;

export function findPasswordAssignments(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const match of text.matchAll(PROSE_PASSWORD)) {
    const value = (match[1] ?? '').replace(/[.!?)]$/, '');
    if (!looksLikeSecretValue(value)) continue;
    const start = match.index + match[0].length - (match[1] ?? '').length;
    findings.push({ start, end: start + value.length, kind: 'password-assignment', source: 'generic' });
  }
  for (const match of text.matchAll(KEY_AND_CONNECTOR)) {
    VALUE.lastIndex = (match.index ?? 0) + match[0].length;
    const value = VALUE.exec(text);
    const literal = value?.[1] ?? value?.[2] ?? value?.[3] ?? value?.[4];
    if (value === null || literal === undefined || !looksLikeSecretValue(literal)) continue;
    const start = value.index + value[0].indexOf(literal);
    findings.push({ start, end: start + literal.length, kind: 'password-assignment', source: 'generic' });
  }
  return findings;
}
