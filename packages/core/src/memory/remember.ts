import { and, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { executeSqlOn, PLANNED_EACH_TIME, records, type Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError } from '../errors.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { unknownDerivedFrom, type ValidRememberInput } from './record-input.ts';
import { recordViewSchema, toRecordView, type RecordRow, type RecordView } from './record-view.ts';
import { findOrCreateWorkspace } from './workspaces.ts';

async function assertSourcesExist(tx: Db, caller: Caller, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const found = await tx
    .select({ id: records.id })
    .from(records)
    .where(and(inArray(records.id, ids), isNull(records.deletedAt), visibleRecords(caller, records)));
  const existing = new Set(found.map((row) => row.id));
  const missing = ids.filter((id) => !existing.has(id));
  if (missing.length > 0) throw unknownDerivedFrom(missing);
}

const notStored = () => new AppError('unavailable', 'the record could not be stored');

/** The failure of a record sent at once whose workspace does not exist yet (see insertInto). */
const WORKSPACE_MISSING = 'mmw:workspace_missing';

/** The columns of an inserted record its answer is made of. */
const INSERTED_COLUMNS = [
  'id',
  'workspace_id',
  'content',
  'source',
  'source_id',
  'source_hash',
  'source_revision',
  'fact_key',
  'confidence',
  'scope',
  'derived_from',
  'superseded_by',
  'archivist_mark',
  'created_at',
  'updated_at',
];

/**
 * The record $15, for a workspace of the caller's project that exists and is active; no row when it
 * does not, or, sent at once (with the statements after it already written), a failure that stops
 * them. Its time is the statement's own moment (records stored in one transaction each have theirs),
 * taken once, so that created_at and updated_at are the same.
 */
const insertInto = (superseding: string, atOnce = false) => `
  with ws as (
    select id, name, clock_timestamp() as at from workspaces
     where account_id = $1::uuid and project_id = $2::uuid and name = $3 and deleted_at is null
  ), inserted as (
    insert into records (id, account_id, project_id, workspace_id, author_user_id, key_id, content, source,
                         source_id, source_hash, source_revision, fact_key, confidence, scope, derived_from,
                         created_at, updated_at)
    select $15::uuid, $1::uuid, $2::uuid, ws.id, $4::uuid, $5::uuid, $6, $7, $8, $9, $10, $11, $12::float8, $13,
           $14::uuid[], ws.at, ws.at
      from ${atOnce ? `(select 1) as one left join ws on true where mmw_require(ws.id is not null, '${WORKSPACE_MISSING}')` : 'ws'}
    returning ${INSERTED_COLUMNS.join(', ')}
  )${superseding}
  select inserted.*, ws.name as workspace from inserted, ws`;

/**
 * Versions of one fact_key in one workspace are written one at a time: a version saved at the same
 * moment as another sees it (it committed before this one's insert began) and marks it, so one
 * version stays the newest. The lock ends with the transaction.
 */
const LOCK_FACT_KEY = `select pg_advisory_xact_lock(
  hashtextextended(concat_ws(':', 'fact_key', $1::text, $2::text, $3::text, $4::text), 0))`;

/**
 * With a fact_key, the earlier versions are marked in the same statement, and the record's time is
 * the insert's, taken after the lock, so the newest version is also the latest. Planned on every
 * run: a generic plan made while records was nearly empty found them by reading every record of the
 * account, on every remember, until the connection closed (docs/decisions/0010).
 */
const SUPERSEDING = `, superseded as (
    -- Earlier versions are kept and marked; their updated_at is left alone, so the newest ranks first.
    update records r set superseded_by = i.id from inserted i
     where r.account_id = $1::uuid and r.workspace_id = i.workspace_id and r.fact_key = $11
       and r.superseded_by is null and r.deleted_at is null
  )`;

/**
 * Built once each: the statements of remember (with a fact_key: planned on every run, for the reason
 * above), alone or sent at once with the statements after them.
 */
const INSERT = {
  alone: { plain: insertInto(''), version: `${PLANNED_EACH_TIME}${insertInto(SUPERSEDING)}` },
  atOnce: {
    plain: insertInto('', true),
    version: `${PLANNED_EACH_TIME}${insertInto(SUPERSEDING, true)}`,
  },
};

/** The inserted row: the record view's columns as stored, with the workspace id and archivist mark. */
const insertedRow = recordViewSchema
  .pick({
    id: true,
    workspace: true,
    content: true,
    source: true,
    source_id: true,
    source_hash: true,
    source_revision: true,
    fact_key: true,
    confidence: true,
    scope: true,
    derived_from: true,
    superseded_by: true,
    created_at: true,
    updated_at: true,
  })
  .extend({ workspace_id: z.string(), archivist_mark: z.enum(['stale', 'refined']).nullable() });

type InsertedRow = z.infer<typeof insertedRow>;

/** A remember's answer: the record as it was inserted, in a workspace, unverified and unlinked. */
function answerOf(row: InsertedRow): RecordView {
  const record: RecordRow = {
    id: row.id,
    workspaceId: row.workspace_id,
    content: row.content,
    source: row.source,
    sourceId: row.source_id,
    sourceHash: row.source_hash,
    sourceRevision: row.source_revision,
    factKey: row.fact_key,
    confidence: row.confidence,
    scope: row.scope,
    derivedFrom: row.derived_from,
    supersededBy: row.superseded_by,
    archivistMark: row.archivist_mark,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
  return toRecordView(record, { workspace: row.workspace, status: 'unverified', graph: [] });
}

/**
 * The record's insert, after the lock of its fact_key when it has one; both are sent before either
 * is answered.
 */
async function insertIntoWorkspace(
  tx: Db,
  caller: Caller,
  id: string,
  input: ValidRememberInput,
  statements: (typeof INSERT)['alone'],
): Promise<RecordView | undefined> {
  const run = executeSqlOn(tx);
  const locked =
    input.factKey === null
      ? undefined
      : run(LOCK_FACT_KEY, [caller.accountId, caller.projectId, input.workspace, input.factKey]);
  const inserted = run(input.factKey === null ? statements.plain : statements.version, [
    caller.accountId,
    caller.projectId,
    input.workspace,
    caller.userId,
    caller.keyId,
    input.content,
    caller.source,
    input.sourceId,
    input.sourceHash,
    input.sourceRevision,
    input.factKey,
    input.confidence,
    input.scope,
    input.derivedFrom,
    id,
  ]);
  const [{ rows }] = await Promise.all([inserted, locked]);
  return rows[0] === undefined ? undefined : answerOf(insertedRow.parse(rows[0]));
}

/**
 * Inserts a new record in the caller's transaction. Never overwrites: a record with the same fact_key
 * becomes a newer version and the earlier versions point to it through superseded_by. The input is
 * already validated and guarded. A workspace not yet written (or another project's, or deleted) takes
 * the slow way: found or created with every check, then the same statement again.
 */
export async function insertRecord(
  tx: Db,
  caller: Caller,
  id: string,
  input: ValidRememberInput,
): Promise<RecordView> {
  if (input.derivedFrom.length === 0) {
    const inserted = await insertIntoWorkspace(tx, caller, id, input, INSERT.alone);
    if (inserted) return inserted;
  }
  // The workspace is checked before the sources, so its error comes first.
  await findOrCreateWorkspace(tx, caller, input.workspace);
  await assertSourcesExist(tx, caller, input.derivedFrom);
  const created = await insertIntoWorkspace(tx, caller, id, input, INSERT.alone);
  if (!created) throw notStored();
  return created;
}

/**
 * insertRecord's statements sent at once, with those after them already written, for a record that
 * needs no more: a workspace that exists and no derived_from (undefined for a record with
 * derived_from). Where its workspace does not exist, it fails in the database, which stops the
 * statements after it, and the record is stored again by insertRecord.
 */
export function recordSentAtOnce(
  caller: Caller,
  id: string,
  input: ValidRememberInput,
): ((tx: Db) => Promise<RecordView>) | undefined {
  if (input.derivedFrom.length > 0) return undefined;
  return async (tx) => {
    const inserted = await insertIntoWorkspace(tx, caller, id, input, INSERT.atOnce);
    // Not reached: without its workspace, the insert fails instead of answering no row.
    if (!inserted) throw notStored();
    return inserted;
  };
}

/** A record that needs no more than its insert: no fact_key to lock and mark, no sources to check. */
function needsOnlyItsInsert(input: ValidRememberInput): boolean {
  return input.factKey === null && input.derivedFrom.length === 0;
}

/**
 * Records of one account that need no more than their insert, in one statement: $1 the account, $2
 * a JSON array of them. Each goes to a workspace of its caller's project that exists and is active,
 * or the statement fails as INSERT.atOnce does. Each takes its own moment, in the order given.
 *
 * A JSON array, not one array per column: PostgreSQL estimates the rows of unnest() from the arrays
 * it is given, so each run's own plan looked cheaper than the prepared one and the statement was
 * planned on every transaction (a third of its time); the rows of jsonb_to_recordset() are estimated
 * alike whatever the values, and the prepared plan is kept.
 */
const INSERT_TOGETHER = `
  with x as (
    select * from jsonb_to_recordset($2::jsonb) as x (n int, id uuid, project_id uuid, workspace text,
      author_user_id uuid, key_id uuid, content text, source text, source_id text, source_hash text,
      source_revision text, confidence float8, scope text)
  ), ws as (
    -- One lookup by (project, name) per record, whatever the number of the account's workspaces.
    select distinct on (w.id) w.id, w.project_id, w.name
      from x cross join lateral (
        select id, project_id, name from workspaces
         where project_id = x.project_id and name = x.workspace and account_id = $1::uuid and deleted_at is null
         limit 1) as w
  ), inserted as (
    insert into records (id, account_id, project_id, workspace_id, author_user_id, key_id, content, source,
                         source_id, source_hash, source_revision, confidence, scope, created_at, updated_at)
    select x.id, $1::uuid, x.project_id, ws.id, x.author_user_id, x.key_id, x.content, x.source, x.source_id,
           x.source_hash, x.source_revision, x.confidence, x.scope, x.at, x.at
      from (select x.*, clock_timestamp() as at from x order by x.n) as x
      left join ws on ws.project_id = x.project_id and ws.name = x.workspace
     where mmw_require(ws.id is not null, '${WORKSPACE_MISSING}')
    returning ${INSERTED_COLUMNS.join(', ')}
  )
  select inserted.*, ws.name as workspace from inserted join ws on ws.id = inserted.workspace_id`;

interface RecordToSend {
  caller: Caller;
  recordId: string;
  input: ValidRememberInput;
}

async function insertTogether(tx: Db, records: RecordToSend[]): Promise<Map<string, RecordView>> {
  const rows = records.map(({ caller, recordId, input }, n) => ({
    n,
    id: recordId,
    project_id: caller.projectId,
    workspace: input.workspace,
    author_user_id: caller.userId,
    key_id: caller.keyId,
    content: input.content,
    source: caller.source,
    source_id: input.sourceId,
    source_hash: input.sourceHash,
    source_revision: input.sourceRevision,
    confidence: input.confidence,
    scope: input.scope,
  }));
  const { rows: inserted } = await executeSqlOn(tx)(INSERT_TOGETHER, [
    records[0]?.caller.accountId,
    // The text PostgreSQL would store from a text parameter: a lone surrogate, which JSON would
    // carry as an escape PostgreSQL refuses, becomes U+FFFD, as it does in the parameter's UTF-8.
    JSON.stringify(rows, (_key, value: unknown) =>
      typeof value === 'string' ? value.toWellFormed() : value,
    ),
  ]);
  const answers = inserted.map((row) => answerOf(insertedRow.parse(row)));
  return new Map(answers.map((answer) => [answer.id, answer]));
}

/**
 * The records of one account's transaction written whole (each has a work from recordSentAtOnce):
 * those that need no more than their insert go in one statement, sent first; each other one sends
 * its own. One promise per record, in order.
 */
export function recordsSentAtOnce(tx: Db, records: RecordToSend[]): Array<Promise<RecordView>> {
  const plain = records.filter((record) => needsOnlyItsInsert(record.input));
  const together = plain.length > 1 ? insertTogether(tx, plain) : undefined;
  return records.map(async ({ caller, recordId, input }) => {
    if (together && needsOnlyItsInsert(input)) {
      const answer = (await together).get(recordId);
      if (!answer) throw notStored();
      return answer;
    }
    const work = recordSentAtOnce(caller, recordId, input);
    if (!work) throw notStored();
    return work(tx);
  });
}

const REMEMBERED = `select ${INSERTED_COLUMNS.map((column) => `r.${column}`).join(', ')}, w.name as workspace
  from records r join workspaces w on w.id = r.workspace_id and w.account_id = r.account_id
 where r.account_id = $1::uuid and r.id = $2::uuid`;

/**
 * The answer remember gave when it stored the record: rebuilt from the row, as it was then (a new
 * record is never superseded, and its update time was its creation time); what replays an
 * idempotent request. Undefined when the record is gone from the table.
 */
export async function rememberedAnswer(
  tx: Db,
  caller: Caller,
  recordId: string,
): Promise<RecordView | undefined> {
  const { rows } = await executeSqlOn(tx)(REMEMBERED, [caller.accountId, recordId]);
  if (rows[0] === undefined) return undefined;
  const row = insertedRow.parse(rows[0]);
  return answerOf({ ...row, superseded_by: null, archivist_mark: null, updated_at: row.created_at });
}
