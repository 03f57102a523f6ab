/**
 * Replaces every secret in a text with `[REDACTED:<kind>]`. Findings come from secretlint's
 * recommended preset plus our own rules; overlapping findings are merged into one placeholder
 * named after the widest finding (the maintained rule set wins a tie, the generic
 * password-assignment rule loses one).
 */
import { findPasswordAssignments } from './password-assignment.ts';
import type { SecretFinding } from './secret-finding.ts';
import { findSpecificSecrets } from './secret-rules.ts';
import { scanWithSecretlint } from './secretlint-rules.ts';
import { joinSplitTokens, secretView } from './secret-view.ts';

export interface RedactionResult {
  readonly text: string;
  /** The kind of every placeholder inserted, in order of appearance, each kind once. */
  readonly kinds: string[];
}

const SOURCE_RANK: Readonly<Record<SecretFinding['source'], number>> = {
  secretlint: 0,
  specific: 1,
  generic: 2,
};

function outranks(a: SecretFinding, b: SecretFinding): boolean {
  const widthA = a.end - a.start;
  const widthB = b.end - b.start;
  if (widthA !== widthB) return widthA > widthB;
  return SOURCE_RANK[a.source] < SOURCE_RANK[b.source];
}

/** Merges overlapping findings; each merged span keeps the kind of its strongest member. */
export function mergeFindings(findings: readonly SecretFinding[]): SecretFinding[] {
  const sorted = findings
    .filter((finding) => finding.end > finding.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: SecretFinding[] = [];
  for (const finding of sorted) {
    const last = merged.at(-1);
    if (last === undefined || finding.start >= last.end) {
      merged.push(finding);
      continue;
    }
    const strongest = outranks(finding, last) ? finding : last;
    merged[merged.length - 1] = { ...strongest, start: last.start, end: Math.max(last.end, finding.end) };
  }
  return merged;
}

async function scan(text: string): Promise<SecretFinding[]> {
  const findings = [...(await scanWithSecretlint(text)), ...findSpecificSecrets(text), ...findPasswordAssignments(text)];
  return findings.filter((finding) => !isPlaceholderRun(text.slice(finding.start, finding.end)));
}

/** A token's shape filled with one character (`ghp_xxxx…`, `sk-…XXXXXXXX`): a placeholder in a README. */
function isPlaceholderRun(value: string): boolean {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  return Math.max(...counts.values()) >= 0.75 * value.length;
}

/** A run of base64 long enough to hold a secret (a Kubernetes Secret's `data:` values). */
const BASE64_RUN = /(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{20,4000}={0,2}(?![A-Za-z0-9+/=])/g;
/** At most this many runs are decoded per text: each decoded run is scanned again. */
const MAX_BASE64_RUNS = 20;
const PRINTABLE = /^[\x20-\x7e\t\r\n]+$/;

/** Runs of base64 whose decoded text holds a secret: the whole run is the secret's finding. */
async function encodedSecrets(text: string): Promise<SecretFinding[]> {
  const findings: SecretFinding[] = [];
  let runs = 0;
  for (const run of text.matchAll(BASE64_RUN)) {
    if (run[0].length % 4 === 1 || (runs += 1) > MAX_BASE64_RUNS) continue;
    const decoded = Buffer.from(run[0], 'base64').toString('latin1');
    if (!PRINTABLE.test(decoded)) continue;
    const found = await scan(decoded);
    if (found[0] !== undefined) findings.push({ ...found[0], start: run.index, end: run.index + run[0].length });
  }
  return findings;
}

/**
 * Findings in the text, in its normalized view mapped back to the original's offsets, and inside
 * its runs of base64.
 */
export async function findSecrets(text: string): Promise<SecretFinding[]> {
  const findings = [...(await scan(text)), ...(await encodedSecrets(text))];
  const view = joinSplitTokens(secretView(text));
  if (view.text === text) return findings;
  for (const finding of await scan(view.text)) {
    const start = view.starts[finding.start];
    const end = view.ends[finding.end - 1];
    if (start !== undefined && end !== undefined) findings.push({ ...finding, start, end });
  }
  return findings;
}

/** `extra`: findings made elsewhere (a secret split across fields), in this text's offsets. */
export async function redactSecrets(text: string, extra: readonly SecretFinding[] = []): Promise<RedactionResult> {
  if (text === '') return { text, kinds: [] };
  return redactFindings(text, [...(await findSecrets(text)), ...extra]);
}

/** The text with each of the findings (in its offsets) replaced by its placeholder. */
export function redactFindings(text: string, findings: readonly SecretFinding[]): RedactionResult {
  if (findings.length === 0) return { text, kinds: [] };
  const spans = mergeFindings(findings);
  let redacted = '';
  let cursor = 0;
  for (const span of spans) {
    redacted += `${text.slice(cursor, span.start)}[REDACTED:${span.kind}]`;
    cursor = span.end;
  }
  redacted += text.slice(cursor);
  return { text: redacted, kinds: [...new Set(spans.map((span) => span.kind))] };
}
