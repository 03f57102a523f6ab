import { and, inArray, isNull } from 'drizzle-orm';
import { z } from 'zod';
import { records, withTenant, type Database, type Db } from '@mmw/db';
import type { Plan } from '../billing/plans.ts';
import type { Caller } from '../caller.ts';
import { AppError, messages } from '../errors.ts';
import { visibleRecords } from '../visibility/visible-records.ts';
import { fingerprintRequest } from './idempotency.ts';
import { unknownDerivedFrom, type ValidRememberInput } from './record-input.ts';
import { toRecordView, type RecordView } from './record-view.ts';

export interface RememberWrite {
  caller: Caller;
  plan: Plan;
  /** Validated and guarded. */
  input: ValidRememberInput;
  idempotencyKey: string | undefined;
  /** Count the record against the plan's record limit (off only in the benchmark's measurements). */
  countRecords: boolean;
}

async function assertSourcesExist(tx: Db, caller: Caller, ids: string[]): Promise<void> {
  const found = await tx
    .select({ id: records.id })
    .from(records)
    .where(and(inArray(records.id, ids), isNull(records.deletedAt), visibleRecords(caller, records)));
  const existing = new Set(found.map((row) => row.id));
  const missing = ids.filter((id) => !existing.has(id));
  if (missing.length > 0) throw unknownDerivedFrom(missing);
}

/** The whole write in one statement: packages/db/migrations/0035_archivist_intake.sql. */
const REMEMBER = {
  name: 'mmw_remember',
  text: `select * from mmw_remember($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
};

const timestamp = z.union([z.date(), z.string()]).transform((value) => new Date(value));

const rememberRow = z.object({
  outcome: z.enum([
    'stored',
    'replayed',
    'key_conflict',
    'key_expired',
    'workspace_inactive',
    'workspace_forbidden',
    'record_limit',
  ]),
  id: z.string().nullable(),
  workspace_id: z.string().nullable(),
  workspace: z.string().nullable(),
  content: z.string().nullable(),
  source: z.string().nullable(),
  source_id: z.string().nullable(),
  source_hash: z.string().nullable(),
  source_revision: z.string().nullable(),
  fact_key: z.string().nullable(),
  confidence: z.coerce.number().nullable(),
  scope: z.string().nullable(),
  derived_from: z.array(z.string()).nullable(),
  created_at: timestamp.nullable(),
});

type RememberRow = z.infer<typeof rememberRow>;

/** The plan's record limit is reached: what remember and an import answer. */
export function recordLimitReached(plan: Pick<Plan, 'name' | 'recordLimit'>): AppError {
  return new AppError(
    'record_limit',
    `record limit reached: the ${plan.name} plan keeps at most ${plan.recordLimit ?? 0} records. Forget records you no longer need or upgrade the plan.`,
  );
}

function refusal(row: RememberRow, write: RememberWrite): Error {
  switch (row.outcome) {
    case 'key_conflict':
      return new AppError('idempotency_conflict', messages.idempotencyConflict);
    case 'key_expired':
      return new AppError('unavailable', 'the earlier answer under this X-Idempotency-Key expired, send it again');
    case 'workspace_inactive':
      return new AppError('workspace_inactive', messages.workspaceInactive(write.input.workspace));
    case 'workspace_forbidden':
      return new AppError('workspace_forbidden', messages.workspaceForbidden);
    case 'record_limit':
      return recordLimitReached(write.plan);
    default:
      return new AppError('unavailable', 'the record could not be stored');
  }
}

/** A stored record's answer: as inserted, unverified, unlinked, and the newest of its fact_key. */
function answerOf(row: RememberRow): RecordView {
  const { id, workspace_id, workspace, content, source, created_at } = row;
  if (!id || !workspace_id || !workspace || content === null || !source || !created_at) {
    throw new AppError('unavailable', 'the record could not be stored');
  }
  return toRecordView(
    {
      id,
      workspaceId: workspace_id,
      content,
      source,
      sourceId: row.source_id,
      sourceHash: row.source_hash,
      sourceRevision: row.source_revision,
      factKey: row.fact_key,
      confidence: row.confidence ?? 0.5,
      scope: row.scope,
      derivedFrom: row.derived_from ?? [],
      supersededBy: null,
      archivistMark: null,
      createdAt: created_at,
      updatedAt: created_at,
    },
    { workspace, status: 'unverified', graph: [] },
  );
}

/**
 * Stores one record (docs/architecture.md, "A remember call", steps 4 to 7): the sources of
 * derived_from are checked; then one statement, mmw_remember(), outside any transaction, answers a
 * request repeated under its X-Idempotency-Key from the store before any other work ('replayed'),
 * or stores the record with its place in the archivist's intake, or refuses and writes nothing.
 */
export async function rememberRecord(database: Database, write: RememberWrite): Promise<RecordView> {
  const { caller, input, idempotencyKey } = write;
  if (input.derivedFrom.length > 0) {
    await withTenant(database.db, caller.accountId, (tx) =>
      assertSourcesExist(tx, caller, input.derivedFrom),
    );
  }
  const { rows } = await database.write({
    ...REMEMBER,
    values: [
      caller.accountId,
      caller.projectId,
      input.workspace,
      caller.userId,
      caller.keyId,
      crypto.randomUUID(),
      input.content,
      caller.source,
      input.sourceId,
      input.sourceHash,
      input.sourceRevision,
      input.factKey,
      input.confidence,
      input.scope,
      input.derivedFrom,
      idempotencyKey ?? null,
      idempotencyKey === undefined ? null : fingerprintRequest(input),
      write.countRecords,
      write.plan.recordLimit ?? null,
    ],
  });
  const row = rememberRow.parse(rows[0]);
  if (row.outcome !== 'stored' && row.outcome !== 'replayed') throw refusal(row, write);
  return answerOf(row);
}
