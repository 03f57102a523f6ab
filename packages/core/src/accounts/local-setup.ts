import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { accounts, users, withSystem, type Db } from '@mmw/db';
import { hashPassword } from '../auth/password.ts';
import { provisionKey, type ProvisionedKey } from './provision.ts';

export const LOCAL_ACCOUNT = 'local';
export const LOCAL_PROJECT = 'default';
export const LOCAL_MEMBER = 'you@mmw.local';

export interface LocalSetup extends ProvisionedKey {
  email: string;
  /** The local member's dashboard password, shown once. */
  password: string;
}

/**
 * On the first start of an empty database: a local account, project and key to connect an assistant,
 * and a password for its member to sign in to the dashboard.
 */
export async function ensureLocalSetup(db: Db): Promise<LocalSetup | undefined> {
  const existing = await withSystem(db, (tx) => tx.select({ id: accounts.id }).from(accounts).limit(1));
  if (existing.length > 0) return undefined;
  const issued = await provisionKey(db, {
    account: LOCAL_ACCOUNT,
    project: LOCAL_PROJECT,
    member: LOCAL_MEMBER,
    name: 'local key',
  });
  const password = randomBytes(15).toString('base64url');
  const passwordHash = await hashPassword(password);
  await withSystem(db, (tx) => tx.update(users).set({ passwordHash }).where(eq(users.id, issued.userId)));
  return { ...issued, email: LOCAL_MEMBER, password };
}

export function claudeAddCommand(mcpUrl: string, key: string): string {
  return `claude mcp add --transport http mmw ${mcpUrl} --header "Authorization: Bearer ${key}"`;
}
