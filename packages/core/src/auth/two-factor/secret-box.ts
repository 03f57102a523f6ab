import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { AppError } from '../../errors.ts';

/**
 * The TOTP secret at rest: sealed with AES-256-GCM under MMW_SECRET_KEY (docs/security.md), a key
 * kept apart from the database, with the user's id as associated data (a sealed secret copied to
 * another user's row does not open). Stored as `v1:<key id>:<iv>:<ciphertext and tag>`; the key id
 * (the first bytes of the key's SHA-256) picks the key, so a new key can be added in front of the
 * old one (MMW_SECRET_KEY=new,old) and both open while secrets are re-sealed at their next
 * enrolment. Without MMW_SECRET_KEY secrets are stored as they are, and a stored plain secret
 * still opens once a key is set.
 */
export interface SecretBox {
  seal(secret: string, userId: string): string;
  open(stored: string, userId: string): string;
}

const PREFIX = 'v1';
const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);
// Said to the person (409), who can tell the operator: a misconfigured key is not their wrong code.
const unreadable = () => new AppError('conflict', 'two-factor sign-in is unavailable: this server cannot read the secret (the operator must check MMW_SECRET_KEY)');

/** keys: 32-byte keys, the first one seals; none: secrets are stored as they are. */
export function secretBox(keys: readonly Buffer[]): SecretBox {
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const sealing = keys[0];
  return {
    seal(secret, userId) {
      if (sealing === undefined) return secret;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealing, iv);
      cipher.setAAD(Buffer.from(userId));
      const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return [PREFIX, keyId(sealing), iv.toString('base64url'), sealed.toString('base64url')].join(':');
    },
    open(stored, userId) {
      const parts = stored.split(':');
      if (parts[0] !== PREFIX) return stored;
      const [, id = '', ivText = '', sealedText = ''] = parts;
      const key = byId.get(id);
      if (key === undefined || parts.length !== 4) throw unreadable();
      const sealed = Buffer.from(sealedText, 'base64url');
      if (sealed.length < 17) throw unreadable();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
        decipher.setAAD(Buffer.from(userId));
        decipher.setAuthTag(sealed.subarray(sealed.length - 16));
        return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString('utf8');
      } catch {
        throw unreadable();
      }
    },
  };
}

/** Stores secrets as they are: where no MMW_SECRET_KEY is configured. */
export const plainSecretBox: SecretBox = secretBox([]);
