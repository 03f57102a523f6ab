import { describe, expect, it } from 'vitest';
import {
  findPasswordAssignments,
  looksLikeSecretValue,
  shannonEntropy,
} from '../../src/guard/password-assignment.ts';
import { mergeFindings, redactSecrets } from '../../src/guard/redact-secrets.ts';
import { findSpecificSecrets } from '../../src/guard/secret-rules.ts';
import { scanWithSecretlint } from '../../src/guard/secretlint-rules.ts';

/** Fake values built from pieces, never a realistic literal token. */
const fake = (prefix: string, length: number): string =>
  prefix + 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xYz'.repeat(8).slice(0, length);

describe('secretlint preset (through our rule context)', () => {
  it('finds a GitHub token and names its kind', async () => {
    const findings = await scanWithSecretlint(`token ${fake('ghp_', 36)}`);
    expect(findings.map((finding) => finding.kind)).toEqual(['github-token']);
  });

  it('narrows the AWS secret-key finding to the key itself', async () => {
    const key = fake('', 40);
    const text = `aws_secret_access_key = ${key}`;
    const [finding] = await scanWithSecretlint(text);
    expect(finding?.kind).toBe('aws-secret-key');
    expect(text.slice(finding?.start, finding?.end)).toBe(key);
  });

  it('narrows URL findings to the password', async () => {
    const text = 'postgres://admin:S3cretPassw0rd@db.example.com:5432/app';
    const [finding] = await scanWithSecretlint(text);
    expect(text.slice(finding?.start, finding?.end)).toBe('S3cretPassw0rd');
  });

  it('does not let a secretlint-disable comment hide a secret', async () => {
    const result = await redactSecrets(`<!-- secretlint-disable -->\n${fake('ghp_', 36)}`);
    expect(result.kinds).toEqual(['github-token']);
  });
});

describe('our secret rules', () => {
  it.each([
    ['google-api-key', `key=${fake('AIza', 35)}`],
    ['stripe-key', fake('sk_live_', 24)],
    ['jwt', `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${fake('', 43)}`],
    ['openai-key', fake('sk-proj-', 40)],
    ['anthropic-key', fake('sk-ant-api03-', 40)],
    ['private-key', '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI'],
    ['connection-string-password', 'redis://:Wq8s9dfA7sd@cache:6379'],
    ['basic-auth-url', 'https://bot:p%40ss-w0rd!@example.com'],
  ])('finds a %s', (kind, text) => {
    expect(findSpecificSecrets(text).map((finding) => finding.kind)).toContain(kind);
  });

  it('skips placeholder URL passwords', () => {
    expect(findSpecificSecrets('postgres://app:${DB_PASSWORD}@db/app')).toEqual([]);
    expect(findSpecificSecrets('https://user:<password>@example.com')).toEqual([]);
  });
});

describe('password assignments', () => {
  it('measures entropy in bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });

  it.each(['hunter2', 'Hunter2Summer!', 'x8f3kQ9zL2mP7wR4tY6u', 'correcthorsebatterystaple'])(
    'treats %s as a secret value',
    (value) => {
      expect(looksLikeSecretValue(value)).toBe(true);
    },
  );

  it.each([
    '<see vault>',
    '${DB_PASSWORD}',
    'changeme',
    'string',
    'os.environ',
    'settings.API_KEY',
    '/home/user',
    'aaaaaaaa',
    'see the vault entry',
    'short',
    'Authorization:',
    'Kubernetes.',
  ])('does not treat %s as a secret value', (value) => {
    expect(looksLikeSecretValue(value)).toBe(false);
  });

  it('redacts only the value of secret-named keys', () => {
    const text = 'DB_PASSWORD=Hunter2Summer! and fact_key=deploy-staging-environment';
    const findings = findPasswordAssignments(text);
    expect(findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(['Hunter2Summer!']);
  });

  it('reads the next word of a sentence as prose, not as the value', () => {
    expect(findPasswordAssignments('The API token: Authorization header must carry the token from the vault.')).toEqual([]);
  });

  it('handles quoted, JSON and YAML forms', () => {
    const text = `api_secret: "x8f3kQ9zL2mP7wR4tY6u"\n{"client_secret": "Zq81-Lm3_Pw9Xc2"}\npassword = 'tr0ub4dor&3'`;
    expect(findPasswordAssignments(text).map((finding) => text.slice(finding.start, finding.end))).toEqual([
      'x8f3kQ9zL2mP7wR4tY6u',
      'Zq81-Lm3_Pw9Xc2',
      'tr0ub4dor&3',
    ]);
  });
  it('reads a secret stated a few words after its name, in prose and on a command line', () => {
    const value = 'Kd8x9f2c4e1a';
    const texts = [
      `the passphrase for the signing key is ${value}.`,
      `I set the grafana admin password to ${value} after the reset`,
      `das Passwort für den Staging-Server ist ${value}`,
      `mysql -h db01 -u root -p${value} shop`,
      `staging creds: deploy / ${value}`,
    ];
    for (const text of texts) {
      expect(findPasswordAssignments(text).map((finding) => text.slice(finding.start, finding.end)), text).toEqual([value]);
    }
  });

  it('leaves prose about secrets alone', () => {
    const texts = [
      'the token is valid for 24 hours.',
      'the password policy is: at least 12 characters',
      'Email the session token to backup@example.com every night',
      'the api key lives in https://vault.example.com/ui/keys',
      'rotate the password to the staging database every quarter',
      'mysql -u root -p shop',
      'creds: see the Engineering vault in 1Password',
    ];
    for (const text of texts) expect(findPasswordAssignments(text), text).toEqual([]);
  });
});

describe('tokens known by their prefix', () => {
  it('finds them whole, without a trailing full stop, and not a word that shares the prefix', () => {
    const token = fake('dop_v1_', 71);
    const text = `doctl uses ${token}. The pypi-project-name is not one.`;
    const found = findSpecificSecrets(text).map((finding) => [finding.kind, text.slice(finding.start, finding.end)]);
    expect(found).toEqual([['digitalocean-token', token]]);
  });
});

describe('redactSecrets', () => {
  it('merges overlapping findings into one placeholder named after the widest', () => {
    const merged = mergeFindings([
      { start: 10, end: 20, kind: 'password-assignment', source: 'generic' },
      { start: 10, end: 20, kind: 'github-token', source: 'specific' },
      { start: 5, end: 40, kind: 'gcp-service-account', source: 'secretlint' },
      { start: 50, end: 60, kind: 'jwt', source: 'specific' },
    ]);
    expect(merged).toEqual([
      { start: 5, end: 40, kind: 'gcp-service-account', source: 'secretlint' },
      { start: 50, end: 60, kind: 'jwt', source: 'specific' },
    ]);
  });

  it('prefers the specific kind over a generic assignment of the same value', async () => {
    const result = await redactSecrets(`GITHUB_TOKEN=${fake('ghp_', 36)}`);
    expect(result.text).toBe('GITHUB_TOKEN=[REDACTED:github-token]');
  });

  it('returns text without secrets unchanged, and is idempotent', async () => {
    const text = 'Deploy with `curl -X POST https://ci.example.com/deploy`.';
    expect(await redactSecrets(text)).toEqual({ text, kinds: [] });
    const once = await redactSecrets(`password: ${fake('', 16)}`);
    expect(await redactSecrets(once.text)).toEqual({ text: once.text, kinds: [] });
  });
});
