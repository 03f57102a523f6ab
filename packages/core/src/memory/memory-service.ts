import { randomUUID } from 'node:crypto';
import { recordAudit } from '../audit/record-audit.ts';
import { entitlementFor, type Access } from '../billing/entitlement.ts';
import { planById, type Plan } from '../billing/plans.ts';
import type { Caller } from '../caller.ts';
import type { QueryExpander } from '../archivist/query-expansion.ts';
import type { Config } from '../config.ts';
import { AppError, isAppError, messages } from '../errors.ts';
import { guardRecord } from '../guard/index.ts';
import { createCallLimits, keyLimitsByPlan, type CallLimits } from '../limits/call-limits.ts';
import { authenticateKey } from '../keys/authenticate-key.ts';
import { countNewRecords, recordLimitFailure } from '../usage/record-count.ts';
import { createSharedTransactions, executeSqlOn, withTenant, type Db, type ExecuteSql } from '@mmw/db';
import { forgetRecord, type ForgetInput, type ForgetOutput } from './forget.ts';
import {
  earlierAnswer,
  fingerprintRequest,
  idempotencyKeyHeld,
  storeIdempotentAnswers,
  validateIdempotencyKey,
  type IdempotentAnswer,
} from './idempotency.ts';
import type { LimitState, MemorySession } from './memory-session.ts';
import { validateRememberInput, type RememberInput, type ValidRememberInput } from './record-input.ts';
import type { RecordView } from './record-view.ts';
import { insertRecord, recordSentAtOnce, recordsSentAtOnce } from './remember.ts';
import { searchRecords, type SearchInput, type SearchOutput } from './search.ts';
import { validateMemory, type ValidateInput, type ValidateOutput } from './validate-memory.ts';

export type { MemorySession } from './memory-session.ts';

export interface RememberOptions {
  idempotencyKey?: string | undefined;
}

type WithNotice<T> = T & { notice?: string };

export interface MemoryService {
  /**
   * The session of a presented key (AppError 'unauthorized' for a bad one). For a request that is
   * one tool call, the call is counted in its call-limit windows by the same statement: one round
   * trip for both (the tool's own checks then decide on those windows).
   */
  authenticate(presentedKey: string, options?: { toolCall?: boolean }): Promise<MemorySession>;
  remember(
    session: MemorySession,
    input: RememberInput,
    options?: RememberOptions,
  ): Promise<WithNotice<RecordView>>;
  search(session: MemorySession, input: SearchInput): Promise<WithNotice<SearchOutput>>;
  forget(session: MemorySession, input: ForgetInput): Promise<WithNotice<ForgetOutput>>;
  validate(session: MemorySession, input: ValidateInput): Promise<WithNotice<ValidateOutput>>;
}

export interface MemoryServiceDeps {
  db: Db;
  /**
   * Where the key's session is read, a statement that runs alone: the database's executeAlone
   * (one connection kept for such statements); a statement on db otherwise.
   */
  executeAlone?: ExecuteSql;
  config: Config;
  now?: () => Date;
  /** Expands queries that find nothing or are abstract; without it, search does not expand. */
  expander?: QueryExpander;
  /**
   * Work that must commit with the records, such as enqueueing the archivist: once for the records
   * that share a transaction (all of one account).
   */
  onRecordsStored?: (tx: Db, stored: StoredRecord[]) => Promise<void>;
  /** The call limits (and the month's call counts) to use; the runtime passes its own to flush them. */
  callLimits?: CallLimits;
  /** Which protections run; all of them unless told otherwise. */
  protections?: Protections;
}

/**
 * The ingress protections of remember and the other tools. Only the benchmark turns them off, to
 * measure what they cost; the apps never pass this.
 */
export interface Protections {
  guard: boolean;
  idempotency: boolean;
  /** Call limits per key and project, and the plan's record limit. */
  limits: boolean;
}

export const READ_ONLY_KEY = 'this key is read-only: it may search and validate_memory, not remember or forget';

/** A record a remember stored, with its caller. */
export interface StoredRecord {
  caller: Caller;
  recordId: string;
}

/** What a remember leaves for its transaction's end: written once for all that share it. */
interface Remembered extends StoredRecord {
  plan: Plan;
  input: ValidRememberInput;
  idempotent: IdempotentAnswer | undefined;
}

/** The memory tools with every rule that applies to them, for every door (MCP, dashboard, jobs). */
export function createMemoryService(deps: MemoryServiceDeps): MemoryService {
  const { db, config } = deps;
  const executeAlone = deps.executeAlone ?? executeSqlOn(db);
  const limits: CallLimits = deps.callLimits ?? createCallLimits(db);
  const now = deps.now ?? (() => new Date());
  const protections: Protections = deps.protections ?? { guard: true, idempotency: true, limits: true };
  // Records of one account stored at the same moment share a transaction (its begin, its commit and
  // the account's counter row); see docs/decisions/0011-shared-transactions.md. What each leaves for
  // the commit (its idempotent answer, its archivist job, its count) is written once for all of them.
  const recordWrites = createSharedTransactions<Remembered>(db, {
    maxShared: 16,
    finish: async (tx, remembered) => {
      const [first] = remembered;
      if (!first) return;
      const accountId = first.caller.accountId;
      await storeIdempotentAnswers(
        tx,
        accountId,
        remembered.flatMap((one) => (one.idempotent ? [one.idempotent] : [])),
      );
      await deps.onRecordsStored?.(tx, remembered);
      // One account, so one plan: every caller's session read the same subscription.
      if (protections.limits) await countNewRecords(tx, accountId, first.plan, remembered.length);
    },
    sendAtOnce: (tx, writes) =>
      recordsSentAtOnce(
        tx,
        writes.map((write) => write.intent),
      ),
  });

  /** Project, subscription and call limits, in that order; returns what the call may go on with. */
  async function enter(session: MemorySession, needs: Exclude<Access, 'none'>) {
    if (!session.projectActive) throw new AppError('project_unavailable', messages.projectUnavailable);
    if (needs === 'full' && session.readOnly === true) throw new AppError('forbidden', READ_ONLY_KEY);
    const plan = planById(config, session.plan);
    const entitlement = entitlementFor(session.subscription, plan.graceDays, now());
    if (entitlement.access === 'none' || (needs === 'full' && entitlement.access === 'read_only')) {
      throw new AppError(
        'subscription_required',
        entitlement.notice ?? messages.notice('memory is unavailable'),
      );
    }
    if (!protections.limits) return { caller: session.caller, plan, notice: entitlement.notice };
    // Windows counted with the key stand for one call: a second tool call of the request counts anew.
    const windows = session.windows;
    session.windows = undefined;
    let state: LimitState;
    try {
      state =
        windows === undefined
          ? await limits.count(session.caller, plan)
          : limits.decide(session.caller, plan, windows);
    } catch (error) {
      if (isAppError(error) && error.retryAfterSeconds !== undefined) {
        session.onLimits?.({
          limit: 0,
          remaining: 0,
          resetSeconds: error.retryAfterSeconds,
          retryAfterSeconds: error.retryAfterSeconds,
        });
      }
      throw error;
    }
    session.onLimits?.(state);
    return { caller: session.caller, plan, notice: entitlement.notice };
  }

  const withNotice = <T extends object>(result: T, notice: string | undefined): WithNotice<T> =>
    notice === undefined ? result : { ...result, notice };

  async function guarded(caller: Caller, valid: ValidRememberInput): Promise<ValidRememberInput> {
    if (!protections.guard) return valid;
    try {
      const { fields } = await guardRecord({
        content: valid.content,
        fact_key: valid.factKey,
        source_id: valid.sourceId,
        source_hash: valid.sourceHash,
        source_revision: valid.sourceRevision,
        scope: valid.scope,
      });
      return {
        ...valid,
        content: fields.content,
        factKey: fields.fact_key,
        sourceId: fields.source_id,
        sourceHash: fields.source_hash,
        sourceRevision: fields.source_revision,
        scope: fields.scope,
      };
    } catch (error) {
      if (isAppError(error) && error.code === 'guard_rejected') {
        // The fact of the rejection is kept, never the content.
        await withTenant(db, caller.accountId, (tx) =>
          recordAudit(tx, {
            accountId: caller.accountId,
            action: 'guard.rejected',
            actorUserId: caller.userId,
            actorKeyId: caller.keyId,
            data: { reason: error.message, workspace: valid.workspace },
          }),
        );
      }
      throw error;
    }
  }

  async function store(
    caller: Caller,
    plan: Plan,
    input: ValidRememberInput,
    idempotencyKey: string | undefined,
  ) {
    const fingerprint = idempotencyKey === undefined ? undefined : fingerprintRequest(input);
    try {
      // The idempotency entry, the archivist's job and the record count are sent with the commit;
      // a record that needs nothing more is sent with them, in the same round trip.
      const recordId = randomUUID();
      const idempotent =
        idempotencyKey !== undefined && fingerprint !== undefined
          ? { caller, key: idempotencyKey, fingerprint, recordId }
          : undefined;
      const atOnce = recordSentAtOnce(caller, recordId, input);
      return await recordWrites.run(caller.accountId, {
        intent: { caller, plan, input, recordId, idempotent },
        work: (tx) => insertRecord(tx, caller, recordId, input),
        ...(atOnce ? { atOnce } : {}),
      });
    } catch (thrown) {
      const error = recordLimitFailure(thrown, plan) ?? thrown;
      if (idempotencyKey === undefined || fingerprint === undefined) throw error;
      const held = idempotencyKeyHeld(error);
      if (!held && !isAppError(error)) throw error;
      // A repeat: its own record was rolled back, and the first request's answer is replayed, even
      // where the repeat alone would now be refused (a source forgotten since, the record limit).
      const earlier = await withTenant(db, caller.accountId, (tx) =>
        earlierAnswer(tx, caller, idempotencyKey, fingerprint),
      );
      if (earlier !== undefined) return earlier;
      if (held)
        throw new AppError(
          'unavailable',
          'the earlier answer under this X-Idempotency-Key expired, send it again',
        );
      throw error;
    }
  }

  const keyLimits = keyLimitsByPlan((id) => planById(config, id));

  return {
    authenticate: (presentedKey, options = {}) =>
      authenticateKey(
        executeAlone,
        presentedKey,
        protections.limits && options.toolCall === true ? { countCallWith: keyLimits } : {},
      ),
    async remember(session, input, options = {}) {
      const idempotencyKey =
        options.idempotencyKey === undefined || !protections.idempotency
          ? undefined
          : validateIdempotencyKey(options.idempotencyKey);
      const valid = validateRememberInput(input);
      const { caller, plan, notice } = await enter(session, 'full');
      const record = await store(caller, plan, await guarded(caller, valid), idempotencyKey);
      return withNotice(record, notice);
    },
    async search(session, input) {
      const { caller, notice } = await enter(session, 'read_only');
      return withNotice(await searchRecords(db, caller, input, deps.expander), notice);
    },
    async forget(session, input) {
      const { caller, notice } = await enter(session, 'full');
      return withNotice(await forgetRecord(db, caller, input), notice);
    },
    async validate(session, input) {
      const { caller, notice } = await enter(session, 'read_only');
      return withNotice(await validateMemory(db, caller, input), notice);
    },
  };
}
