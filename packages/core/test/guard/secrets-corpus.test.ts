import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../src/guard/redact-secrets.ts';
import { buildSecretsCorpus } from './fixtures/secrets-corpus.ts';

const { planted, lookAlikes } = buildSecretsCorpus();

describe('secrets corpus', () => {
  it('plants every kind the guard names', () => {
    const kinds = new Set(planted.map((secret) => secret.kind));
    for (const kind of [
      'github-token',
      'aws-access-key',
      'aws-secret-key',
      'slack-token',
      'stripe-key',
      'openai-key',
      'anthropic-key',
      'private-key',
      'connection-string-password',
      'basic-auth-url',
      'google-api-key',
      'jwt',
      'password-assignment',
      'gcp-service-account',
    ]) {
      expect(kinds).toContain(kind);
    }
  });

  it.each(planted.map((secret) => [secret.name, secret] as const))(
    'redacts %s with the right kind',
    async (_name, secret) => {
      const result = await redactSecrets(secret.text);
      expect(result.text).not.toContain(secret.secret);
      expect(result.text).toContain(`[REDACTED:${secret.kind}]`);
      expect(result.kinds).toContain(secret.kind);
    },
  );

  it.each(lookAlikes.map((lookAlike) => [lookAlike.name, lookAlike] as const))(
    'leaves the look-alike %s untouched',
    async (_name, lookAlike) => {
      const result = await redactSecrets(lookAlike.text);
      expect(result.text).toBe(lookAlike.text);
      expect(result.kinds).toEqual([]);
    },
  );

  it('removes every planted secret from one record that holds them all', async () => {
    const record = planted.map((secret) => secret.text).join('\n\n');
    const result = await redactSecrets(record);
    for (const secret of planted) expect(result.text).not.toContain(secret.secret);
  });
});
