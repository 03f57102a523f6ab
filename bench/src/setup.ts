import { provisionKey, type Caller } from '@mmw/core';
import type { Db } from '@mmw/db';
import type { BenchDatabase } from './bench-database.ts';
import type { Tenant } from './bulk-load.ts';
import { WORKSPACES } from './corpus.ts';

export const SEARCHED_WORKSPACE = 'default';

export interface BenchTenant extends Tenant {
  /** One key per concurrent client, each acting for another member of the organization. */
  keys: string[];
  /** The caller each key acts as. */
  callers: Caller[];
}

/**
 * One organization, one project, `clients` members with a key each, and the 100 workspaces of the
 * corpus ('default' is the searched one). The bulk-loaded records are the first member's.
 */
export async function setUpTenant(bench: BenchDatabase, db: Db, clients: number): Promise<BenchTenant> {
  const provisioned = [];
  for (let i = 0; i < clients; i++) {
    provisioned.push(await provisionKey(db, { account: 'bench-org', project: 'main', member: `dev${i}@bench.local` }));
  }
  const first = provisioned[0];
  if (!first) throw new Error('no key');
  const names = Array.from({ length: WORKSPACES }, (_, i) => (i === 0 ? SEARCHED_WORKSPACE : `ws-${String(i).padStart(2, '0')}`));
  const rows = await bench.admin<{ id: string; name: string }>(
    `insert into workspaces (account_id, project_id, name) select $1, $2, unnest($3::text[]) returning id, name`,
    [first.accountId, first.projectId, names],
  );
  const byName = new Map(rows.map((row) => [row.name, row.id]));
  return {
    accountId: first.accountId,
    projectId: first.projectId,
    userId: first.userId,
    keyId: first.keyId,
    workspaceIds: names.map((name) => byName.get(name) ?? ''),
    keys: provisioned.map((key) => key.key),
    callers: provisioned.map((key) => ({
      accountId: key.accountId,
      projectId: key.projectId,
      userId: key.userId,
      keyId: key.keyId,
      source: 'agent' as const,
    })),
  };
}
