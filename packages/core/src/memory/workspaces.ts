import { and, eq, isNull, ne } from 'drizzle-orm';
import { workspaces, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError, messages } from '../errors.ts';
import { DEFAULT_WORKSPACE } from './record-input.ts';

export interface WorkspaceRef {
  id: string;
  name: string;
}

async function findInProject(tx: Db, caller: Caller, name: string): Promise<WorkspaceRef | undefined> {
  const [row] = await tx
    .select({ id: workspaces.id, name: workspaces.name, deletedAt: workspaces.deletedAt })
    .from(workspaces)
    .where(
      and(
        eq(workspaces.accountId, caller.accountId),
        eq(workspaces.projectId, caller.projectId),
        eq(workspaces.name, name),
      ),
    );
  if (row?.deletedAt) throw new AppError('workspace_inactive', messages.workspaceInactive(name));
  return row ? { id: row.id, name: row.name } : undefined;
}

/** A named workspace of the account that belongs to another project is refused, never shared. */
async function assertNotOtherProjects(tx: Db, caller: Caller, name: string): Promise<void> {
  if (name === DEFAULT_WORKSPACE) return; // every project has its own default workspace
  const [other] = await tx
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(
      and(
        eq(workspaces.accountId, caller.accountId),
        ne(workspaces.projectId, caller.projectId),
        eq(workspaces.name, name),
        isNull(workspaces.deletedAt),
      ),
    )
    .limit(1);
  if (other) throw new AppError('workspace_forbidden', messages.workspaceForbidden);
}

/** Reads never create a workspace: one never written is "not active". */
export async function findWorkspace(tx: Db, caller: Caller, name: string): Promise<WorkspaceRef> {
  const found = await findInProject(tx, caller, name);
  if (found) return found;
  await assertNotOtherProjects(tx, caller, name);
  throw new AppError('workspace_inactive', messages.workspaceInactive(name));
}
