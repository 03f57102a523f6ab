/**
 * Runs secretlint's recommended rule preset over a string.
 *
 * Decision: we call the preset's rule creators directly with a minimal rule context instead of
 * `lintSource` from @secretlint/core. `lintSource` routes every call through secretlint's global
 * profiler, which keeps every performance mark it ever made (unbounded memory, and its measure
 * lookups grow with it): fine for a CLI run, a leak on the hot path of a server. The rules
 * themselves are plain functions over the text, and this is the API secretlint gives them.
 * The preset's comment filter is left out on purpose: it lets text opt out of detection with a
 * "secretlint-disable" comment, which a record must not be able to do.
 */
import { rules as recommendedRules } from '@secretlint/secretlint-rule-preset-recommend';
import type {
  SecretLintRuleContext,
  SecretLintRuleLocalizeMessages,
  SecretLintRuleMessageTranslate,
  SecretLintSourceCode,
  SecretLintSourceNodeLocation,
  SecretLintSourceNodePosition,
} from '@secretlint/types';
import type { SecretFinding } from './secret-finding.ts';

/** Our placeholder kind for each secretlint rule and message. */
const KIND_BY_RULE: Readonly<Record<string, string | Readonly<Record<string, string>>>> = {
  '@secretlint/secretlint-rule-aws': {
    AWSAccessKeyID: 'aws-access-key',
    AWSSecretAccessKey: 'aws-secret-key',
    AWSAccountID: 'aws-account-id',
  },
  '@secretlint/secretlint-rule-gcp': 'gcp-service-account',
  '@secretlint/secretlint-rule-privatekey': 'private-key',
  '@secretlint/secretlint-rule-npm': { PackageJSON_xOauthToken: 'github-token' },
  '@secretlint/secretlint-rule-basicauth': 'basic-auth-url',
  '@secretlint/secretlint-rule-slack': { IncomingWebhook: 'slack-webhook' },
  '@secretlint/secretlint-rule-sendgrid': 'sendgrid-key',
  '@secretlint/secretlint-rule-shopify': 'shopify-token',
  '@secretlint/secretlint-rule-github': 'github-token',
  '@secretlint/secretlint-rule-openai': 'openai-key',
  '@secretlint/secretlint-rule-anthropic': 'anthropic-key',
  '@secretlint/secretlint-rule-linear': 'linear-key',
  '@secretlint/secretlint-rule-1password': '1password-token',
  '@secretlint/secretlint-rule-database-connection-string': 'connection-string-password',
};
const DEFAULT_KIND_BY_RULE: Readonly<Record<string, string>> = {
  '@secretlint/secretlint-rule-npm': 'npm-token',
  '@secretlint/secretlint-rule-slack': 'slack-token',
  '@secretlint/secretlint-rule-aws': 'aws-secret-key',
};

/** AWS access key ids are off by default in the preset; a key id next to its secret is still a leak. */
const RULE_OPTIONS: Readonly<Record<string, object>> = {
  '@secretlint/secretlint-rule-aws': { enableIDScanRule: true },
};

const scanners = recommendedRules.filter((rule) => rule.meta.type === 'scanner');

function kindOf(ruleId: string, messageId: string): string {
  const mapped = KIND_BY_RULE[ruleId];
  if (typeof mapped === 'string') return mapped;
  return mapped?.[messageId] ?? DEFAULT_KIND_BY_RULE[ruleId] ?? 'secret';
}

/** secretlint's translator builds messages that quote the secret; we only need the message id. */
function createTranslator<T extends SecretLintRuleLocalizeMessages>(
  _messages: T,
): SecretLintRuleMessageTranslate<T> {
  return (messageId) => ({ message: '', messageId: String(messageId), data: undefined });
}

class TextSource implements SecretLintSourceCode {
  readonly hasBOM = false;
  readonly filePath = undefined;
  readonly physicalFilePath = undefined;
  readonly contentType = 'text';

  constructor(
    readonly content: string,
    readonly ext: string,
  ) {}

  getFilePath(): undefined {
    return undefined;
  }

  getPhysicalFilePath(): undefined {
    return undefined;
  }

  indexToPosition(index: number): SecretLintSourceNodePosition {
    const before = this.content.slice(0, index);
    const line = before.split('\n').length;
    return { line, column: index - (before.lastIndexOf('\n') + 1) };
  }

  positionToIndex(position: SecretLintSourceNodePosition): number {
    const lines = this.content.split('\n').slice(0, position.line - 1);
    return lines.reduce((sum, line) => sum + line.length + 1, 0) + position.column;
  }

  rangeToLocation(range: readonly [number, number]): SecretLintSourceNodeLocation {
    return { start: this.indexToPosition(range[0]), end: this.indexToPosition(range[1]) };
  }

  locationToRange(location: SecretLintSourceNodeLocation): readonly [number, number] {
    return [this.positionToIndex(location.start), this.positionToIndex(location.end)];
  }
}

/** The GCP rule is the only one with an asynchronous branch (for .p12 files), so it is never shared. */
const GCP_RULE = '@secretlint/secretlint-rule-gcp';

function contextFor(ruleId: string, into: () => SecretFinding[] | null): SecretLintRuleContext {
  return {
    sharedOptions: {},
    createTranslator,
    report(descriptor) {
      const [start, end] = descriptor.range;
      into()?.push({ start, end, kind: kindOf(ruleId, descriptor.message.messageId), source: 'secretlint' });
    },
    ignore() {
      // Filters are not run, so nothing asks to ignore a finding.
    },
  };
}

/**
 * The synchronous rules are created once and report into `sink`, which is set for the duration
 * of one synchronous scan; creating them per call cost as much as running them.
 */
let sink: SecretFinding[] | null = null;
const sharedHandlers = scanners
  .filter((rule) => rule.meta.id !== GCP_RULE)
  .map((rule) => ({
    ruleId: rule.meta.id,
    handler: rule.create(
      contextFor(rule.meta.id, () => sink),
      RULE_OPTIONS[rule.meta.id] ?? {},
    ),
  }));

/**
 * Literals without which a rule cannot match, read off each rule's patterns in the preset
 * (v11.7.1). A rule whose literal is absent is skipped; most rules use Unicode lookbehinds that
 * V8 runs slowly, and an ordinary note contains none of these literals. A rule not listed here
 * (a newer preset) always runs.
 */
const MAY_MATCH: Readonly<Record<string, (text: string, lower: string) => boolean>> = {
  '@secretlint/secretlint-rule-aws': (text, lower) =>
    /A3T|AKIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ASIA/.test(text) ||
    lower.includes('secret') ||
    lower.includes('account'),
  '@secretlint/secretlint-rule-privatekey': (text) => text.includes('PRIVATE KEY'),
  '@secretlint/secretlint-rule-npm': (text) =>
    text.includes('npm_') || text.includes('_authToken') || text.includes('x-oauth-basic'),
  '@secretlint/secretlint-rule-basicauth': (text) => text.includes('://'),
  '@secretlint/secretlint-rule-slack': (text, lower) =>
    text.includes('xox') || text.includes('xapp') || lower.includes('hooks.slack.com'),
  '@secretlint/secretlint-rule-sendgrid': (text) => text.includes('SG.'),
  '@secretlint/secretlint-rule-shopify': (text) => text.includes('shp'),
  '@secretlint/secretlint-rule-github': (text) => /gh[pousr]_|github_pat_/.test(text),
  '@secretlint/secretlint-rule-openai': (text) => text.includes('T3BlbkFJ'),
  '@secretlint/secretlint-rule-anthropic': (text) => text.includes('sk-ant-api0'),
  '@secretlint/secretlint-rule-linear': (text) => text.includes('lin_api_'),
  '@secretlint/secretlint-rule-1password': (text) => text.includes('ops_'),
  '@secretlint/secretlint-rule-database-connection-string': (_text, lower) =>
    lower.includes('mongodb') || lower.includes('mysql') || lower.includes('postgres'),
};
const gcpRule = scanners.find((rule) => rule.meta.id === GCP_RULE);

/** Runs the preset; a whole-text JSON object is also scanned as a .json file (GCP service accounts). */
export async function scanWithSecretlint(text: string): Promise<SecretFinding[]> {
  const findings: SecretFinding[] = [];
  const looksLikeJson = /^\s*\{[\s\S]*\}\s*$/.test(text);
  const source = new TextSource(text, looksLikeJson ? '.json' : '.txt');
  const lower = text.toLowerCase();
  sink = findings;
  try {
    for (const { ruleId, handler } of sharedHandlers) {
      if (MAY_MATCH[ruleId]?.(text, lower) === false) continue;
      const pending = handler.file?.(source);
      // None of these rules is asynchronous for text sources. If an upgrade made one so, its
      // reports would arrive after `sink` is reset; fail loudly rather than store a secret.
      if (pending !== undefined) throw new Error('secretlint rule unexpectedly asynchronous');
    }
  } finally {
    sink = null;
  }
  if (gcpRule !== undefined && looksLikeJson && text.includes('private_key')) {
    await gcpRule
      .create(
        contextFor(GCP_RULE, () => findings),
        {},
      )
      .file?.(source);
  }
  return findings.map((finding) => repairRange(text, finding));
}

/**
 * secretlint reports some findings with a range that does not cover just the secret: the AWS
 * secret-key rule starts at the key name and has the secret's length, and the URL rules cover
 * the whole URL. We narrow them so the secret, and only the secret, is replaced.
 */
function repairRange(text: string, finding: SecretFinding): SecretFinding {
  if (finding.kind === 'aws-secret-key') {
    const secret = /[A-Za-z0-9/+=]{40}/g;
    secret.lastIndex = finding.start;
    const match = secret.exec(text);
    if (match !== null) return { ...finding, start: match.index, end: match.index + 40 };
  }
  if (finding.kind === 'basic-auth-url' || finding.kind === 'connection-string-password') {
    const url = text.slice(finding.start, finding.end);
    // The password is bounded: unbounded, a run of "://:" without an @ made the search quadratic.
    const userInfo = /:\/\/[^:/\s@]*:([^@\s]{1,256})@/.exec(url);
    const password = userInfo?.[1];
    if (userInfo !== null && password !== undefined) {
      const start = finding.start + userInfo.index + userInfo[0].length - 1 - password.length;
      return { ...finding, start, end: start + password.length };
    }
  }
  return finding;
}
