import { and, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { importMappings, memberships, projects, records, users, workspaces, type Db } from '@mmw/db';
import { AppError } from '../errors.ts';
import type { RelationLine } from './export-format.ts';

/** A record line made ready to store: ids rewritten, fields validated and guarded. */
export interface ImportRow {
  originalId: string;
  id: string;
  projectId: string;
  workspaceId: string;
  authorUserId: string;
  content: string;
  source: string;
  sourceId: string | null;
  sourceHash: string | null;
  sourceRevision: string | null;
  factKey: string | null;
  confidence: number;
  scope: string | null;
  derivedFrom: string[];
  supersededBy: string | null;
  archivistMark: 'stale' | 'refined' | null;
  archivistReason: string | null;
  createdAt: Date;
  updatedAt: Date;
  deletedAt: Date | null;
}

/** Rows a statement returns: node-postgres and PGlite's driver both answer with `rows`. */
async function rowsOf(tx: Db, statement: SQL): Promise<{ rows: Array<Record<string, unknown>> }> {
  const result: unknown = await tx.execute(statement);
  return { rows: (result as { rows: Array<Record<string, unknown>> }).rows };
}

/** The ids among `ids` that the account already holds. */
export async function presentIds(tx: Db, accountId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found = await tx
    .select({ id: records.id })
    .from(records)
    .where(and(eq(records.accountId, accountId), inArray(records.id, ids)));
  return new Set(found.map((row) => row.id));
}

/** Stores the rows (a row already present is left as it is) and their place in the mapping. */
export async function insertImportedRows(tx: Db, accountId: string, source: string, rows: ImportRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const inserted = await tx
    .insert(records)
    .values(rows.map(({ originalId: _originalId, ...row }) => ({ ...row, accountId, keyId: null })))
    .onConflictDoNothing({ target: records.id })
    .returning({ id: records.id });
  await tx
    .insert(importMappings)
    .values(rows.map((row) => ({ accountId, source, originalId: row.originalId, newId: row.id })))
    .onConflictDoNothing();
  return inserted.length;
}

/** A tombstone of a record imported earlier, live until now: the deletion reaches it too. */
export async function forgetImported(tx: Db, accountId: string, id: string, deletedAt: Date, by: string): Promise<boolean> {
  const updated = await tx
    .update(records)
    .set({ deletedAt, deletedBy: by })
    .where(and(eq(records.accountId, accountId), eq(records.id, id), isNull(records.deletedAt)))
    .returning({ id: records.id });
  return updated.length > 0;
}

/** A relation between two records of the account, on the first one's workspace; false when an end is missing. */
export async function insertImportedRelation(
  tx: Db,
  accountId: string,
  line: RelationLine,
  from: string,
  to: string,
): Promise<'stored' | 'present' | 'missing'> {
  const result = await rowsOf(tx, sql`
    insert into record_relations (account_id, workspace_id, from_record_id, to_record_id, relation, weight, reason, created_at)
    select ${accountId}::uuid, f.workspace_id, f.id, t.id, ${line.relation}, ${line.weight}, ${line.reason}, ${line.created_at}::timestamptz
      from records f join records t on t.id = ${to}::uuid and t.account_id = ${accountId}::uuid
     where f.id = ${from}::uuid and f.account_id = ${accountId}::uuid
    on conflict (from_record_id, to_record_id, relation) do nothing
    returning id`);
  if (result.rows.length > 0) return 'stored';
  const ends = await presentIds(tx, accountId, [from, to]);
  return ends.size === new Set([from, to]).size ? 'present' : 'missing';
}

/**
 * References of the import's records to records that never arrived (skipped, or left out of the
 * export): dropped, so derived_from and superseded_by point only at records that exist. Returns
 * how many were dropped.
 */
export async function dropDanglingReferences(tx: Db, accountId: string, source: string): Promise<number> {
  const result = await rowsOf(tx, sql`
    with imported as (
      select r.id, r.derived_from, r.superseded_by,
             coalesce((select array_agg(d.id order by d.n) from unnest(r.derived_from) with ordinality as d(id, n)
                        where exists (select from records x where x.id = d.id and x.account_id = r.account_id)), '{}') as kept,
             case when r.superseded_by is null or exists (select from records x where x.id = r.superseded_by and x.account_id = r.account_id)
                  then r.superseded_by end as newer
        from import_mappings m join records r on r.id = m.new_id and r.account_id = m.account_id
       where m.account_id = ${accountId}::uuid and m.source = ${source}
    ), changed as (
      update records r set derived_from = i.kept, superseded_by = i.newer
        from imported i
       where r.id = i.id and (cardinality(i.kept) <> cardinality(i.derived_from) or i.newer is distinct from i.superseded_by)
      returning cardinality(i.derived_from) - cardinality(i.kept) + (case when i.newer is distinct from i.superseded_by then 1 else 0 end) as dropped
    )
    select coalesce(sum(dropped), 0)::int as dropped from changed`);
  return Number(result.rows[0]?.dropped ?? 0);
}

/** Projects by name: the target when one was named (it must exist), else each line's own, made when missing. */
export function projectResolver(tx: Db, accountId: string, target: string | undefined) {
  const known = new Map<string, string>();
  return async (name: string): Promise<string> => {
    const wanted = target ?? name;
    const cached = known.get(wanted);
    if (cached !== undefined) return cached;
    if (target === undefined) {
      await tx.insert(projects).values({ accountId, name: wanted }).onConflictDoNothing();
    }
    const [row] = await tx
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.accountId, accountId), eq(projects.name, wanted)));
    if (row === undefined) throw new AppError('not_found', `project ${wanted} not found`);
    known.set(wanted, row.id);
    return row.id;
  };
}

/**
 * Workspaces by project and name, made on first use as remember makes them; a name another project
 * of the account uses, or a deleted workspace, is a reason to skip the record (as remember refuses it).
 */
export function workspaceResolver(tx: Db, accountId: string) {
  const known = new Map<string, { id: string } | { refused: string }>();
  return async (projectId: string, name: string): Promise<{ id: string } | { refused: string }> => {
    const key = `${projectId}/${name}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const elsewhere = await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.accountId, accountId), eq(workspaces.name, name), isNull(workspaces.deletedAt), sql`${workspaces.projectId} <> ${projectId}::uuid`))
      .limit(1);
    let found: { id: string } | { refused: string };
    if (elsewhere.length > 0 && name !== 'default') {
      found = { refused: 'workspace_used_by_another_project' };
    } else {
      await tx.insert(workspaces).values({ accountId, projectId, name }).onConflictDoNothing();
      const [row] = await tx
        .select({ id: workspaces.id, deletedAt: workspaces.deletedAt })
        .from(workspaces)
        .where(and(eq(workspaces.projectId, projectId), eq(workspaces.name, name)));
      found = row === undefined || row.deletedAt !== null ? { refused: 'workspace_inactive' } : { id: row.id };
    }
    known.set(key, found);
    return found;
  };
}

/** Authors by email: a member of the importing account keeps their records; anyone else's go to the importer. */
export function authorResolver(tx: Db, accountId: string, importerUserId: string) {
  const known = new Map<string, string>();
  return async (email: string | null): Promise<string> => {
    if (email === null) return importerUserId;
    const cached = known.get(email);
    if (cached !== undefined) return cached;
    const [row] = await tx
      .select({ id: users.id })
      .from(users)
      .innerJoin(memberships, and(eq(memberships.userId, users.id), eq(memberships.accountId, accountId), isNull(memberships.removedAt)))
      .where(eq(users.email, email));
    const id = row?.id ?? importerUserId;
    if (known.size < 10_000) known.set(email, id);
    return id;
  };
}
