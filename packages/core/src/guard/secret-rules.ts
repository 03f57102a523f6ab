/**
 * Our own secret rules, for what secretlint's recommended preset lacks (Google API keys, JWTs,
 * Stripe keys, URL credentials outside http/postgres/mysql/mongodb, embedded service-account JSON)
 * and for looser forms of prefixes it only matches at exact lengths (GitHub, OpenAI, Anthropic,
 * truncated PEM blocks). A prefix like `sk-ant-` is unambiguous: redacting a near-miss is cheaper
 * than storing a real key.
 */
import type { SecretFinding } from './secret-finding.ts';

interface PatternRule {
  readonly kind: string;
  /** A literal every match contains; the pattern only runs on texts that contain it. */
  readonly literal: string;
  readonly pattern: RegExp;
  /** Capture group holding the secret; the whole match when absent. */
  readonly group?: number;
}

// Each pattern starts with its literal and checks the character before it with a lookbehind that
// follows the literal, so the engine scans for the literal instead of trying every position.
const SPECIFIC_RULES: readonly PatternRule[] = [
  {
    kind: 'google-api-key',
    literal: 'AIza',
    pattern: /AIza(?<=(?:^|[^A-Za-z0-9_-])AIza)[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'jwt',
    literal: 'eyJ',
    pattern:
      /eyJ(?<=(?:^|[^A-Za-z0-9_-])eyJ)[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'stripe-key',
    literal: 'k_',
    pattern: /(?:sk|rk)_(?<=(?:^|[^A-Za-z0-9])[sr]k_)(?:live|test)_[0-9A-Za-z]{16,}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'stripe-key',
    literal: 'whsec_',
    pattern: /whsec_(?<=(?:^|[^A-Za-z0-9])whsec_)[0-9A-Za-z+/=]{24,}/g,
  },
  {
    kind: 'github-token',
    literal: 'gh',
    pattern: /gh[pousr]_(?<=(?:^|[^A-Za-z0-9])gh[pousr]_)[A-Za-z0-9]{30,}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'github-token',
    literal: 'github_pat_',
    pattern: /github_pat_(?<=(?:^|[^A-Za-z0-9])github_pat_)[A-Za-z0-9_]{40,}(?![A-Za-z0-9_])/g,
  },
  {
    kind: 'anthropic-key',
    literal: 'sk-ant-',
    pattern: /sk-ant-(?<=(?:^|[^A-Za-z0-9])sk-ant-)(?:api|admin|oat)\d{2}-[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: 'openai-key',
    literal: 'sk-',
    pattern: /sk-(?<=(?:^|[^A-Za-z0-9])sk-)(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: 'openai-key',
    literal: 'sk-',
    pattern: /sk-(?<=(?:^|[^A-Za-z0-9])sk-)[A-Za-z0-9]{48}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'slack-token',
    literal: 'xox',
    pattern: /xox(?<=(?:^|[^A-Za-z0-9])xox)[abposr]-[A-Za-z0-9-]{10,}/g,
  },
  {
    kind: 'npm-token',
    literal: 'npm_',
    pattern: /npm_(?<=(?:^|[^A-Za-z0-9])npm_)[A-Za-z0-9]{36}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'private-key',
    literal: 'PRIVATE KEY',
    pattern:
      /-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,20000}?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  { kind: 'bearer-token', literal: 'earer', pattern: /[Bb]earer\s+([A-Za-z0-9._~+/-]{20,}=*)/g, group: 1 },
  {
    kind: 'gitlab-token',
    literal: 'glpat-',
    pattern: /glpat-(?<=(?:^|[^A-Za-z0-9])glpat-)[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'huggingface-token',
    literal: 'hf_',
    pattern: /hf_(?<=(?:^|[^A-Za-z0-9])hf_)[A-Za-z0-9]{30,}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'twilio-key',
    literal: '',
    pattern: /(?<![A-Za-z0-9])(?:SK|AC)[0-9a-f]{32}(?![A-Za-z0-9])/g,
  },
  {
    kind: 'azure-storage-key',
    literal: 'ccountKey=',
    pattern: /[Aa]ccountKey=([A-Za-z0-9+/]{40,}={0,2})/g,
    group: 1,
  },
  {
    kind: 'basic-auth',
    literal: 'asic ',
    pattern: /[Aa]uthorization:[ \t]*[Bb]asic[ \t]+([A-Za-z0-9+/]{8,}={0,2})/g,
    group: 1,
  },
  {
    kind: 'aws-access-key',
    literal: '',
    // Lowercased key ids (secretlint's rule reads upper case only).
    pattern: /(?<![A-Za-z0-9])(?:akia|asia)[0-9a-z]{16}(?![A-Za-z0-9])/g,
  },
  {
    // A JWT whose payload is not a JSON object opening (`eyJ`): the header alone is enough to know it.
    kind: 'jwt',
    literal: 'eyJ',
    pattern:
      /eyJ(?<=(?:^|[^A-Za-z0-9_-])eyJ)[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}(?![A-Za-z0-9_-])/g,
  },
];

/**
 * user:password@ in any scheme; http-like schemes are basic auth, the rest connection strings.
 * Matched at "://" with the scheme captured behind it.
 */
const URL_CREDENTIALS =
  /:\/\/(?<=\b([a-z][a-z0-9+.-]{1,30}):\/\/)[^\s:/@]{0,100}:([^\s@/]{1,200})@(?=[^\s/@])/gi;
const WEB_SCHEME = /^(?:https?|ftps?|wss?)$/i;
const PLACEHOLDER_PASSWORD =
  /^(?:\$|<|\{|%|\*+$|x+$|\.\.\.|pass(?:word)?$|secret$|changeme$|redacted$|\[redacted)/i;

/** A JSON service-account file pasted inside a larger text (secretlint only sees whole .json files). */
const SERVICE_ACCOUNT_MARKER = /"type"\s*:\s*"service_account"/;
const SERVICE_ACCOUNT_FIELD = /"(?:private_key|private_key_id)"\s*:\s*"((?:[^"\\]|\\.)*)"/g;

function collect(text: string, rule: PatternRule, into: SecretFinding[]): void {
  if (!text.includes(rule.literal)) return;
  for (const match of text.matchAll(rule.pattern)) {
    const secret = match[rule.group ?? 0];
    if (secret === undefined || secret === '') continue;
    const start = (match.index ?? 0) + match[0].indexOf(secret);
    into.push({ start, end: start + secret.length, kind: rule.kind, source: 'specific' });
  }
}

export function findSpecificSecrets(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const rule of SPECIFIC_RULES) collect(text, rule, findings);
  for (const match of text.includes('://') ? text.matchAll(URL_CREDENTIALS) : []) {
    const [whole, scheme = '', password = ''] = match;
    if (PLACEHOLDER_PASSWORD.test(password)) continue;
    const start = (match.index ?? 0) + whole.length - 1 - password.length;
    const kind = WEB_SCHEME.test(scheme) ? 'basic-auth-url' : 'connection-string-password';
    findings.push({ start, end: start + password.length, kind, source: 'specific' });
  }
  if (SERVICE_ACCOUNT_MARKER.test(text)) {
    for (const match of text.matchAll(SERVICE_ACCOUNT_FIELD)) {
      const value = match[1] ?? '';
      if (value === '') continue;
      const start = (match.index ?? 0) + match[0].length - 1 - value.length;
      findings.push({ start, end: start + value.length, kind: 'gcp-service-account', source: 'specific' });
    }
  }
  return findings;
}
