import { accounts, withSystem, type Db } from '@mmw/db';
import { provisionKey, type ProvisionedKey } from './provision.ts';

export const LOCAL_ACCOUNT = 'local';
export const LOCAL_PROJECT = 'default';
export const LOCAL_MEMBER = 'you@localhost';

/** On the first start of an empty database: a local account, project and key to connect an assistant. */
export async function ensureLocalSetup(db: Db): Promise<ProvisionedKey | undefined> {
  const existing = await withSystem(db, (tx) => tx.select({ id: accounts.id }).from(accounts).limit(1));
  if (existing.length > 0) return undefined;
  return provisionKey(db, {
    account: LOCAL_ACCOUNT,
    project: LOCAL_PROJECT,
    member: LOCAL_MEMBER,
    name: 'local key',
  });
}

export function claudeAddCommand(mcpUrl: string, key: string): string {
  return `claude mcp add --transport http mmw ${mcpUrl} --header "Authorization: Bearer ${key}"`;
}
