/**
 * Our own secret rules, for what secretlint's recommended preset lacks (Google API keys, JWTs,
 * Stripe keys, URL credentials outside http/postgres/mysql/mongodb, embedded service-account JSON)
 * and for looser forms of prefixes it only matches at exact lengths (GitHub, OpenAI, Anthropic,
 * truncated PEM blocks). A prefix like `sk-ant-` is unambiguous: redacting a near-miss is cheaper
 * than storing a real key.
 */
import { trimEnd, type SecretFinding } from './secret-finding.ts';

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
    // A signed URL's signature or a credential in a query parameter (Azure SAS `sig=`, S3 and GCS
    // presigned URLs, `?access_token=`): a long random value, so a page number or a name is not one.
    kind: 'url-credential',
    literal: '=',
    pattern:
      /[?&](?:sig|signature|x-amz-signature|x-goog-signature|x-amz-security-token|access_token|api_key|apikey|token|secret|password|client_secret)=([A-Za-z0-9%+/_.~-]{16,2000})/gi,
    group: 1,
  },
  {
    // A Terraform Cloud / Enterprise API token: an id, `.atlasv1.`, then the secret.
    kind: 'terraform-token',
    literal: '.atlasv1.',
    pattern: /(?<![A-Za-z0-9])[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/g,
  },
  {
    // A Firebase Cloud Messaging server key: an instance id, then the APA91b token.
    kind: 'firebase-server-key',
    literal: ':APA91b',
    pattern: /:APA91b[A-Za-z0-9_-]{60,400}(?![A-Za-z0-9_-])/g,
  },
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
    // Any other scheme in an Authorization header: Okta's `SSWS`, `Token`, `ApiKey` …
    kind: 'authorization-header',
    literal: 'uthorization',
    pattern: /[Aa]uthorization["']?[ \t]*[:,=][ \t]*["']?[A-Za-z][A-Za-z-]{1,19}[ \t]+([A-Za-z0-9._~+/=-]{16,400})/g,
    group: 1,
  },
  {
    // A BitLocker recovery key: eight groups of six digits.
    kind: 'bitlocker-recovery-key',
    literal: '-',
    pattern: /(?<![0-9-])\d{6}(?:-\d{6}){7}(?![0-9-])/g,
  },
  {
    kind: 'aws-access-key',
    literal: '',
    // Lowercased key ids (secretlint's rule reads upper case only).
    pattern: /(?<![A-Za-z0-9])(?:akia|asia)[0-9a-z]{16}(?![A-Za-z0-9])/g,
  },
  {
    // The base64 body of a private key pasted without its BEGIN line: DER of a sequence (`MII` and
    // its length), then version 0 (`IBA`), which certificates and public keys do not have.
    kind: 'private-key',
    literal: 'MII',
    pattern: /MII(?<=(?:^|[^A-Za-z0-9+/])MII)[A-Za-z0-9+/]{3}IBA[AD][A-Za-z0-9+/]{50,20000}={0,2}/g,
  },
  {
    kind: 'discord-token',
    literal: '.',
    pattern: /(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'telegram-bot-token',
    literal: ':AA',
    pattern: /(?<![0-9])\d{8,10}:AA[A-Za-z0-9_-]{33}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: 'mailgun-key',
    literal: 'key-',
    pattern: /key-(?<=(?:^|[^A-Za-z0-9_-])key-)[0-9a-f]{32}(?![A-Za-z0-9])/g,
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
 * Tokens that announce themselves by a vendor prefix (the prefixes public secret scanners list), each
 * with the shortest body a real token has. One pattern finds them all; the table decides the rest.
 */
const PREFIXED_TOKENS: Readonly<Record<string, { readonly kind: string; readonly body: number }>> = {
  'dop_v1_': { kind: 'digitalocean-token', body: 40 },
  'doo_v1_': { kind: 'digitalocean-token', body: 40 },
  'dor_v1_': { kind: 'digitalocean-token', body: 40 },
  'pypi-': { kind: 'pypi-token', body: 50 },
  'hvs.': { kind: 'vault-token', body: 24 },
  'hvb.': { kind: 'vault-token', body: 24 },
  'hvr.': { kind: 'vault-token', body: 24 },
  'glsa_': { kind: 'grafana-token', body: 32 },
  'glc_': { kind: 'grafana-token', body: 32 },
  'sntrys_': { kind: 'sentry-token', body: 32 },
  'sntryu_': { kind: 'sentry-token', body: 32 },
  'NRAK-': { kind: 'newrelic-key', body: 20 },
  'NRJS-': { kind: 'newrelic-key', body: 16 },
  'NRII-': { kind: 'newrelic-key', body: 20 },
  'shpat_': { kind: 'shopify-token', body: 32 },
  'shpss_': { kind: 'shopify-token', body: 32 },
  'shpca_': { kind: 'shopify-token', body: 32 },
  'shppa_': { kind: 'shopify-token', body: 32 },
  'lin_api_': { kind: 'linear-key', body: 32 },
  'PMAK-': { kind: 'postman-key', body: 24 },
  'ATATT3': { kind: 'atlassian-token', body: 32 },
  'dckr_pat_': { kind: 'docker-token', body: 20 },
  'sk-or-v1-': { kind: 'openrouter-key', body: 32 },
  'gsk_': { kind: 'groq-key', body: 32 },
  'r8_': { kind: 'replicate-token', body: 30 },
  'pcsk_': { kind: 'pinecone-key', body: 32 },
  'figd_': { kind: 'figma-token', body: 30 },
  'xai-': { kind: 'xai-key', body: 40 },
  'nvapi-': { kind: 'nvidia-key', body: 40 },
  'AGE-SECRET-KEY-1': { kind: 'age-key', body: 40 },
  'rubygems_': { kind: 'rubygems-key', body: 40 },
  'pul-': { kind: 'pulumi-token', body: 40 },
  'dp.st.': { kind: 'doppler-token', body: 32 },
  'dp.pt.': { kind: 'doppler-token', body: 32 },
  'dp.ct.': { kind: 'doppler-token', body: 32 },
  'dp.sa.': { kind: 'doppler-token', body: 32 },
  'ya29.': { kind: 'google-oauth-token', body: 30 },
  'sq0atp-': { kind: 'square-token', body: 22 },
  'sq0csp-': { kind: 'square-token', body: 40 },
  'EAAA': { kind: 'square-token', body: 60 },
  'xapp-': { kind: 'slack-token', body: 30 },
  'rzp_live_': { kind: 'razorpay-key', body: 14 },
  'rzp_test_': { kind: 'razorpay-key', body: 14 },
  'dt0c01.': { kind: 'dynatrace-token', body: 40 },
  'ntn_': { kind: 'notion-token', body: 30 },
  'xkeysib-': { kind: 'brevo-key', body: 40 },
  'FLWSECK-': { kind: 'flutterwave-key', body: 30 },
  'AKCp': { kind: 'jfrog-key', body: 60 },
  'dapi': { kind: 'databricks-token', body: 32 },
  'gldt-': { kind: 'gitlab-token', body: 20 },
  'glrt-': { kind: 'gitlab-token', body: 20 },
  'glptt-': { kind: 'gitlab-token', body: 20 },
  'glcbt-': { kind: 'gitlab-token', body: 20 },
  'tskey-': { kind: 'tailscale-key', body: 20 },
  'api_org_': { kind: 'huggingface-token', body: 30 },
};

/**
 * Every prefix that marks a token (a `.` in a prefix matches any character here; the table lookup
 * after a match is exact). The split-token joiner reads the same pattern.
 */
export const TOKEN_PREFIX = new RegExp(
  `(?<![A-Za-z0-9_.-])(?:${Object.keys(PREFIXED_TOKENS).join('|')}|gh[pousr]_|github_pat_|glpat-|hf_|sk-(?:proj|svcacct|admin)-|sk-ant-(?:api|admin|oat)[0-9][0-9]-|sk-|xox[abposr]-|npm_|[sr]k_(?:live|test)_|whsec_|[0-9]{8,10}:AA)`,
  'g',
);

const PREFIXED_TOKEN = new RegExp(`(?<![A-Za-z0-9_.-])(${Object.keys(PREFIXED_TOKENS).join('|')})([A-Za-z0-9_+=.-]{14,400})`, 'g');

function collectPrefixedTokens(text: string, into: SecretFinding[]): void {
  for (const match of text.matchAll(PREFIXED_TOKEN)) {
    const [, prefix = '', rawBody = ''] = match;
    const body = trimEnd(rawBody, '.=-');
    const rule = PREFIXED_TOKENS[prefix];
    if (rule === undefined || body.length < rule.body || !/[0-9]/.test(body)) continue;
    into.push({ start: match.index, end: match.index + prefix.length + body.length, kind: rule.kind, source: 'specific' });
  }
}

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
  collectPrefixedTokens(text, findings);
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
