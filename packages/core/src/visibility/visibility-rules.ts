import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { memberships, visibilityModes, visibilityRules, workspaces, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import { recordAudit } from '../audit/record-audit.ts';
import { AppError } from '../errors.ts';
import { assertAdmin, roleSchema, type Member } from '../orgs/member.ts';
import { getProject } from '../projects/projects.ts';

export const visibilityModeSchema = z.enum(visibilityModes);
export const visibilityRuleSchema = z.object({
  mode: visibilityModeSchema,
  userIds: z.array(z.string()),
  roles: z.array(roleSchema),
});
export type VisibilityRule = z.infer<typeof visibilityRuleSchema>;

export const projectVisibilitySchema = z.object({
  projectDefault: visibilityRuleSchema.nullable(),
  workspaces: z.array(
    z.object({
      workspaceId: z.string(),
      name: z.string(),
      rule: visibilityRuleSchema.nullable(),
      effective: visibilityRuleSchema,
    }),
  ),
});
export type ProjectVisibility = z.infer<typeof projectVisibilitySchema>;

const WHOLE_ORGANIZATION: VisibilityRule = { mode: 'organization', userIds: [], roles: [] };

function ruleOf(row: { mode: VisibilityRule['mode']; userIds: string[]; roles: string[] }): VisibilityRule {
  return {
    mode: row.mode,
    userIds: row.userIds,
    roles: row.roles.filter((role) => roleSchema.safeParse(role).success) as VisibilityRule['roles'],
  };
}

/** The project's default rule and each workspace's own and effective rule. Any member may read them. */
export async function getProjectVisibility(
  db: Db,
  member: Member,
  projectId: string,
): Promise<ProjectVisibility> {
  return withTenant(db, member.accountId, async (tx) => {
    await getProject(tx, member, projectId);
    const rules = await tx
      .select()
      .from(visibilityRules)
      .where(and(eq(visibilityRules.accountId, member.accountId), eq(visibilityRules.projectId, projectId)));
    const spaces = await tx
      .select({ id: workspaces.id, name: workspaces.name })
      .from(workspaces)
      .where(
        and(
          eq(workspaces.accountId, member.accountId),
          eq(workspaces.projectId, projectId),
          isNull(workspaces.deletedAt),
        ),
      )
      .orderBy(workspaces.name);
    const projectRow = rules.find((rule) => rule.workspaceId === null);
    const projectDefault = projectRow ? ruleOf(projectRow) : null;
    return {
      projectDefault,
      workspaces: spaces.map((space) => {
        const own = rules.find((rule) => rule.workspaceId === space.id);
        const rule = own ? ruleOf(own) : null;
        return {
          workspaceId: space.id,
          name: space.name,
          rule,
          effective: rule ?? projectDefault ?? WHOLE_ORGANIZATION,
        };
      }),
    };
  });
}

export const setVisibilityInputSchema = z.object({
  projectId: z.uuid(),
  /** Absent: the project's default. */
  workspaceId: z.uuid().optional(),
  /** null: drop the rule (a workspace follows the project default; a project falls back to the whole organization). */
  rule: visibilityRuleSchema
    .extend({ userIds: z.array(z.uuid()).max(500), roles: z.array(roleSchema).max(3) })
    .nullable(),
});
export type SetVisibilityInput = z.infer<typeof setVisibilityInputSchema>;

/** Admins set who reads a workspace (or, by default, a project); the change is audited. */
export async function setVisibility(db: Db, admin: Member, input: SetVisibilityInput): Promise<void> {
  assertAdmin(admin);
  await withTenant(db, admin.accountId, async (tx) => {
    await getProject(tx, admin, input.projectId);
    if (input.workspaceId !== undefined) {
      const [space] = await tx
        .select({ id: workspaces.id })
        .from(workspaces)
        .where(
          and(
            eq(workspaces.id, input.workspaceId),
            eq(workspaces.accountId, admin.accountId),
            eq(workspaces.projectId, input.projectId),
          ),
        );
      if (!space) throw new AppError('not_found', 'workspace not found');
    }
    const rule = input.rule;
    const userIds = rule?.mode === 'listed' ? [...new Set(rule.userIds)] : [];
    const roles = rule?.mode === 'listed' ? [...new Set(rule.roles)] : [];
    if (userIds.length > 0) {
      const found = await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(
          and(
            eq(memberships.accountId, admin.accountId),
            inArray(memberships.userId, userIds),
            isNull(memberships.removedAt),
          ),
        );
      if (found.length !== userIds.length) throw new AppError('not_found', 'a listed member was not found');
    }
    const target = and(
      eq(visibilityRules.accountId, admin.accountId),
      eq(visibilityRules.projectId, input.projectId),
      input.workspaceId === undefined
        ? isNull(visibilityRules.workspaceId)
        : eq(visibilityRules.workspaceId, input.workspaceId),
    );
    if (rule === null) {
      await tx.delete(visibilityRules).where(target);
    } else {
      // One statement, so two admins saving the same rule at once both succeed and the later wins.
      const values = { mode: rule.mode, userIds, roles, updatedBy: admin.userId, updatedAt: sql`now()` };
      await tx
        .insert(visibilityRules)
        .values({
          accountId: admin.accountId,
          projectId: input.projectId,
          workspaceId: input.workspaceId ?? null,
          ...values,
        })
        .onConflictDoUpdate(
          input.workspaceId === undefined
            ? {
                target: visibilityRules.projectId,
                targetWhere: sql`${visibilityRules.workspaceId} is null`,
                set: values,
              }
            : {
                target: visibilityRules.workspaceId,
                targetWhere: sql`${visibilityRules.workspaceId} is not null`,
                set: values,
              },
        );
    }
    await recordAudit(tx, {
      accountId: admin.accountId,
      action: 'visibility.changed',
      actorUserId: admin.userId,
      targetType: input.workspaceId === undefined ? 'project' : 'workspace',
      targetId: input.workspaceId ?? input.projectId,
      data: { mode: rule?.mode ?? 'inherit', listedMembers: userIds.length, roles },
    });
  });
}
