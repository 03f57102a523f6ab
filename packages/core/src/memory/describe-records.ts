import { and, eq, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { recordRelations, records, workspaces, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { recordColumns } from './record-columns.ts';
import { toRecordView, type GraphRelation, type RecordRow, type RecordView } from './record-view.ts';
import { INHERITANCE_DEPTH, inheritedStatus, ownStatus, type RecordStatus } from './status.ts';
import type { WorkspaceRef } from './workspaces.ts';

export const PREVIEW_LENGTH = 120;

/** Records in `ids` (visible, not forgotten) that have a sibling with the same fact_key and other content or hash. */
async function conflictingIds(tx: Db, caller: Caller, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const sibling = alias(records, 'sibling');
  const rows = await tx
    .select({ id: records.id })
    .from(records)
    .where(
      and(
        inArray(records.id, ids),
        isNotNull(records.factKey),
        sql`exists (${tx
          .select({ one: sql`1` })
          .from(sibling)
          .where(
            and(
              eq(sibling.workspaceId, records.workspaceId),
              eq(sibling.factKey, records.factKey),
              ne(sibling.id, records.id),
              isNull(sibling.deletedAt),
              visibleRecords(caller, sibling),
              or(
                ne(sibling.content, records.content),
                sql`${sibling.sourceHash} is distinct from ${records.sourceHash}`,
              ),
            ),
          )})`,
      ),
    );
  return new Set(rows.map((row) => row.id));
}

/** The derived_from sources of the rows, up to three levels, that the caller may see. */
async function loadSources(tx: Db, caller: Caller, rows: RecordRow[]): Promise<Map<string, RecordRow>> {
  const known = new Map<string, RecordRow>(rows.map((row) => [row.id, row]));
  let frontier = rows.flatMap((row) => row.derivedFrom).filter((id) => !known.has(id));
  for (let depth = 0; depth < INHERITANCE_DEPTH && frontier.length > 0; depth++) {
    const found = await tx
      .select(recordColumns)
      .from(records)
      .where(
        and(
          inArray(records.id, [...new Set(frontier)]),
          isNull(records.deletedAt),
          visibleRecords(caller, records),
        ),
      );
    for (const row of found) known.set(row.id, row);
    frontier = found.flatMap((row) => row.derivedFrom).filter((id) => !known.has(id));
  }
  return known;
}

async function loadGraph(tx: Db, caller: Caller, ids: string[]): Promise<Map<string, GraphRelation[]>> {
  const graph = new Map<string, GraphRelation[]>();
  if (ids.length === 0) return graph;
  const other = alias(records, 'other');
  // Outgoing edges leave a record of the result, incoming ones arrive at it; the other end must be
  // live and visible, or the edge is not shown (nor its preview). Both directions in one statement,
  // looked up for each id of the result on its own, and the other end of each edge by its id (lateral
  // subqueries that cannot be flattened): the plan reads the edges of those records through the edge
  // indexes and their other ends through the primary key, whatever the statistics say of the tables
  // (a plan made while they were small scanned all the account's edges, or all its records for each
  // id: 170 ms at 5,000 records never analysed, the embedded database's first weeks).
  const edge = (direction: GraphRelation['direction']) => {
    const [near, far] =
      direction === 'outgoing' ? ['from_record_id', 'to_record_id'] : ['to_record_id', 'from_record_id'];
    return sql`select ${direction}::text as direction, r.relation, r.weight, near.id as near_id,
        far.id as other_id, far.preview
      from ${recordRelations} r
      cross join lateral (select other.id, left(other.content, ${PREVIEW_LENGTH}) as preview from ${records} other
        where other.id = r.${sql.raw(far)} and other.deleted_at is null and ${visibleRecords(caller, other)}
        offset 0) as far
      where r.${sql.raw(near)} = near.id and r.account_id = ${caller.accountId}`;
  };
  const edges = await tx
    .select({
      direction: sql<GraphRelation['direction']>`e.direction`,
      relation: sql<GraphRelation['relation']>`e.relation`,
      weight: sql<number>`e.weight`,
      nearId: sql<string>`e.near_id`,
      otherId: sql<string>`e.other_id`,
      preview: sql<string>`e.preview`,
    })
    .from(
      sql`unnest(${sql.param(ids)}::uuid[]) as near(id)
        cross join lateral (select * from (${edge('outgoing')} union all ${edge('incoming')}) as both_ways offset 0) as e`,
    );
  // Each direction by weight, strongest first, as before; outgoing before incoming.
  const ordered = [
    ...edges.filter((e) => e.direction === 'outgoing').sort((a, b) => b.weight - a.weight),
    ...edges.filter((e) => e.direction === 'incoming').sort((a, b) => b.weight - a.weight),
  ];
  for (const e of ordered) push(graph, e.nearId, e);
  return graph;
}

function push(
  graph: Map<string, GraphRelation[]>,
  id: string,
  edge: {
    relation: GraphRelation['relation'];
    weight: number;
    otherId: string;
    preview: string;
    direction: GraphRelation['direction'];
  },
): void {
  const list = graph.get(id) ?? [];
  list.push({
    relation: edge.relation,
    direction: edge.direction,
    weight: edge.weight,
    target_id: edge.otherId,
    preview: edge.preview,
  });
  graph.set(id, list);
}

/**
 * Of the ids a result points to (derived_from, superseded_by) that are not among the live visible
 * records already read, those the caller may see (forgotten ones included): an id the caller may
 * not read is left out of the answer, so that it does not tell that such a record exists.
 */
async function visibleReferences(
  tx: Db,
  caller: Caller,
  rows: RecordRow[],
  known: ReadonlyMap<string, RecordRow>,
): Promise<Set<string>> {
  const wanted = new Set<string>();
  for (const row of rows) {
    for (const id of row.derivedFrom) if (!known.has(id)) wanted.add(id);
    if (row.supersededBy !== null && !known.has(row.supersededBy)) wanted.add(row.supersededBy);
  }
  const visible = new Set<string>(known.keys());
  if (wanted.size === 0) return visible;
  const found = await tx
    .select({ id: records.id })
    .from(records)
    .where(and(inArray(records.id, [...wanted]), visibleRecords(caller, records)));
  for (const row of found) visible.add(row.id);
  return visible;
}

async function workspaceNames(
  tx: Db,
  caller: Caller,
  rows: RecordRow[],
  known: WorkspaceRef | undefined,
): Promise<Map<string, string>> {
  const names = new Map<string, string>(known ? [[known.id, known.name]] : []);
  const ids = [...new Set(rows.map((row) => row.workspaceId))].filter((id) => !names.has(id));
  if (ids.length === 0) return names;
  const found = await tx
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaces)
    .where(and(eq(workspaces.accountId, caller.accountId), inArray(workspaces.id, ids)));
  for (const row of found) names.set(row.id, row.name);
  return names;
}

export interface DescribeOptions {
  currentSourceHash: string | null;
  scores?: ReadonlyMap<string, number>;
  /** The workspace the rows were read from, when the caller knows it: its name needs no query. */
  workspace?: WorkspaceRef;
}

/** Turns rows into the spec's response records: status (with inheritance), graph and workspace name. */
export async function describeRecords(
  tx: Db,
  caller: Caller,
  rows: RecordRow[],
  options: DescribeOptions,
): Promise<RecordView[]> {
  if (rows.length === 0) return [];
  const known = await loadSources(tx, caller, rows);
  const withKey = [...known.values()].filter((row) => row.factKey !== null).map((row) => row.id);
  // One after another: a transaction's connection runs one statement at a time, and pg deprecates
  // queueing a second on it while the first runs.
  const conflicts = await conflictingIds(tx, caller, withKey);
  const graph = await loadGraph(
    tx,
    caller,
    rows.map((row) => row.id),
  );
  const names = await workspaceNames(tx, caller, rows, options.workspace);
  const visible = await visibleReferences(tx, caller, rows, known);
  const own = new Map<string, RecordStatus>();
  const derivedFrom = new Map<string, readonly string[]>();
  for (const row of known.values()) {
    own.set(
      row.id,
      ownStatus({ hasConflictingSibling: conflicts.has(row.id), ...row }, options.currentSourceHash),
    );
    derivedFrom.set(row.id, row.derivedFrom);
  }
  return rows.map((row) => {
    const score = options.scores?.get(row.id);
    const shown = {
      ...row,
      derivedFrom: row.derivedFrom.filter((id) => visible.has(id)),
      supersededBy: row.supersededBy !== null && visible.has(row.supersededBy) ? row.supersededBy : null,
    };
    return toRecordView(shown, {
      workspace: names.get(row.workspaceId) ?? '',
      status: inheritedStatus(row.id, own, derivedFrom),
      graph: graph.get(row.id) ?? [],
      ...(score === undefined ? {} : { score }),
    });
  });
}
