import { and, asc, eq, isNull } from 'drizzle-orm';
import { projects, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { assertAdmin, type Member } from '../orgs/member.ts';

export const projectSchema = z.object({ id: z.string(), name: z.string(), active: z.boolean(), createdAt: z.string() });
export type Project = z.infer<typeof projectSchema>;
export const projectNameSchema = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(100)
  .regex(/^[^\p{Cc}]+$/u, 'name must be printable');

const projectNotFound = () => new AppError('not_found', 'project not found');
const nameTaken = (name: string) => new AppError('conflict', `a project named '${name}' already exists`);

function view(row: { id: string; name: string; active: boolean; createdAt: Date }): Project {
  return { id: row.id, name: row.name, active: row.active, createdAt: row.createdAt.toISOString() };
}

export async function listProjects(db: Db, member: Member): Promise<Project[]> {
  const rows = await withTenant(db, member.accountId, (tx) =>
    tx
      .select()
      .from(projects)
      .where(and(eq(projects.accountId, member.accountId), isNull(projects.deletedAt)))
      .orderBy(asc(projects.name)),
  );
  return rows.map(view);
}

/** A project of the member's account, or "not found" (another tenant's id included). */
export async function getProject(tx: Db, member: Member, projectId: string): Promise<Project> {
  const [row] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.accountId, member.accountId), isNull(projects.deletedAt)));
  if (!row) throw projectNotFound();
  return view(row);
}

export async function createProject(db: Db, admin: Member, name: string): Promise<Project> {
  assertAdmin(admin);
  return withTenant(db, admin.accountId, async (tx) => {
    const [row] = await tx.insert(projects).values({ accountId: admin.accountId, name }).onConflictDoNothing().returning();
    if (!row) throw nameTaken(name);
    await recordAudit(tx, { accountId: admin.accountId, action: 'project.created', actorUserId: admin.userId, targetType: 'project', targetId: row.id, data: { name } });
    return view(row);
  });
}

async function updateProject(
  db: Db,
  admin: Member,
  projectId: string,
  change: { name?: string; active?: boolean },
  action: string,
): Promise<Project> {
  assertAdmin(admin);
  return withTenant(db, admin.accountId, async (tx) => {
    if (change.name !== undefined) {
      const [clash] = await tx
        .select({ id: projects.id })
        .from(projects)
        .where(and(eq(projects.accountId, admin.accountId), eq(projects.name, change.name)));
      if (clash && clash.id !== projectId) throw nameTaken(change.name);
    }
    const [row] = await tx
      .update(projects)
      .set(change)
      .where(and(eq(projects.id, projectId), eq(projects.accountId, admin.accountId), isNull(projects.deletedAt)))
      .returning();
    if (!row) throw projectNotFound();
    await recordAudit(tx, { accountId: admin.accountId, action, actorUserId: admin.userId, targetType: 'project', targetId: row.id, data: change });
    return view(row);
  });
}

export async function renameProject(db: Db, admin: Member, projectId: string, name: string): Promise<Project> {
  return updateProject(db, admin, projectId, { name }, 'project.renamed');
}

/** A deactivated project's keys get the spec's "bound project is missing, inactive, or outside tenant". */
export async function setProjectActive(db: Db, admin: Member, projectId: string, active: boolean): Promise<Project> {
  return updateProject(db, admin, projectId, { active }, active ? 'project.reactivated' : 'project.deactivated');
}
