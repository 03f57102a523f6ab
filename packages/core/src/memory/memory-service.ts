import { recordAudit } from '../audit/record-audit.ts';
import { spentAllowance } from '../billing/call-allowance.ts';
import { entitlementFor, type Access } from '../billing/entitlement.ts';
import { planById } from '../billing/plans.ts';
import type { Caller } from '../caller.ts';
import type { QueryExpander } from '../archivist/query-expansion.ts';
import type { Config } from '../config.ts';
import { AppError, isAppError, messages } from '../errors.ts';
import { createGuardPool, redactSecrets, type GuardPool, type InjectionJudge } from '../guard/index.ts';
import { guardRefusals } from '../metrics/metrics.ts';
import { callsThisMonth } from '../usage/call-count.ts';
import { createCallLimits, type CallLimits } from '../limits/call-limits.ts';
import { enforceCallLimits } from '../limits/session-limits.ts';
import { requireScope, scopeForAccess } from '../oauth/scopes.ts';
import { withTenant, type Database } from '@mmw/db';
import { rethrowAsAppError } from '../database-failure.ts';
import { forgetRecord, type ForgetInput, type ForgetOutput } from './forget.ts';
import { createInputGuard, type InputGuard } from './guard-input.ts';
import { validateIdempotencyKey } from './idempotency.ts';
import type { MemorySession } from './memory-session.ts';
import { validateRememberInput, type RememberInput, type ValidRememberInput } from './record-input.ts';
import type { RecordView } from './record-view.ts';
import { rememberRecord } from './remember.ts';
import { searchRecords, type SearchInput, type SearchOutput } from './search.ts';
import { validateMemory, type ValidateInput, type ValidateOutput } from './validate-memory.ts';
import { sessionBatchSchema, type SessionBatchResult } from '../sessions/session-batch.ts';
import { uploadSessionBatch } from '../sessions/upload-sessions.ts';
import {
  searchSessions,
  type SearchSessionsInput,
  type SearchSessionsOutput,
} from '../sessions/search-sessions.ts';

export type { MemorySession } from './memory-session.ts';

export interface RememberOptions {
  idempotencyKey?: string | undefined;
}

type WithNotice<T> = T & { notice?: string };

/** The memory tools for a session a transport resolved (keys/caller-authenticator.ts). */
export interface MemoryService {
  remember(
    session: MemorySession,
    input: RememberInput,
    options?: RememberOptions,
  ): Promise<WithNotice<RecordView>>;
  search(session: MemorySession, input: SearchInput): Promise<WithNotice<SearchOutput>>;
  forget(session: MemorySession, input: ForgetInput): Promise<WithNotice<ForgetOutput>>;
  validate(session: MemorySession, input: ValidateInput): Promise<WithNotice<ValidateOutput>>;
  /** A batch of uploaded session messages (POST /sessions/upload): counted as one call. */
  uploadSessions(session: MemorySession, batch: unknown): Promise<SessionBatchResult>;
  searchSessions(session: MemorySession, input: SearchSessionsInput): Promise<WithNotice<SearchSessionsOutput>>;
  /** The Memory Guard remember uses, for other paths that store records (an import). */
  guardInput: InputGuard;
}

export interface MemoryServiceDeps {
  database: Database;
  config: Config;
  now?: () => Date;
  /** Expands queries that find nothing or are abstract; without it, search does not expand. */
  expander?: QueryExpander;
  /** The call limits (and the month's call counts) to use; the runtime passes its own to flush them. */
  callLimits?: CallLimits;
  /** Which protections run; all of them unless told otherwise. */
  protections?: Protections;
  /** Judges records the Guard is unsure of (a model, where one is configured). */
  injectionJudge?: InjectionJudge;
  /** The Memory Guard's worker pool; one sized from config is made when absent. */
  guard?: GuardPool;
}

export function guardPoolFor(config: Config): GuardPool {
  return createGuardPool({
    threads: config.MMW_GUARD_THREADS,
    queue: config.MMW_GUARD_QUEUE,
    budgetMs: config.MMW_GUARD_BUDGET_MS,
    waitMs: config.MMW_GUARD_WAIT_MS,
  });
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

/** The memory tools with every rule that applies to them, for every door (MCP, dashboard, jobs). */
export function createMemoryService(deps: MemoryServiceDeps): MemoryService {
  const { database, config } = deps;
  const db = database.db;
  const limits: CallLimits = deps.callLimits ?? createCallLimits(db);
  const now = deps.now ?? (() => new Date());
  const protections: Protections = deps.protections ?? { guard: true, idempotency: true, limits: true };
  const guardPool = protections.guard ? (deps.guard ?? guardPoolFor(config)) : undefined;

  /** The month's calls of the session's account before this call, for the plan's allowance. */
  async function callsBefore(session: MemorySession): Promise<number> {
    if (session.callsThisMonth !== undefined) return session.callsThisMonth;
    const { accountId } = session.caller;
    return withTenant(db, accountId, (tx) => callsThisMonth(tx, accountId)).catch(rethrowAsAppError);
  }

  /**
   * Project, subscription, the plan's monthly call allowance and the call limits, in that order;
   * returns what the call may go on with. A spent allowance works as the grace period does: reads
   * go on with its notice, writes are refused with it.
   */
  async function enter(session: MemorySession, needs: Exclude<Access, 'none'>) {
    if (!session.projectActive) throw new AppError('project_unavailable', messages.projectUnavailable);
    requireScope(session, scopeForAccess(needs));
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
    const spent = plan.callsPerMonth === null ? undefined : spentAllowance(plan, await callsBefore(session), now());
    if (spent !== undefined && needs === 'full') throw new AppError('call_allowance_spent', spent);
    const notice = entitlement.access === 'full' ? (spent ?? entitlement.notice) : entitlement.notice;
    await enforceCallLimits(limits, session, plan);
    return { caller: session.caller, plan, notice };
  }

  const withNotice = <T extends object>(result: T, notice: string | undefined): WithNotice<T> =>
    notice === undefined ? result : { ...result, notice };

  const inputGuard = guardPool === undefined ? undefined : createInputGuard(guardPool, deps.injectionJudge);

  async function guarded(caller: Caller, valid: ValidRememberInput): Promise<ValidRememberInput> {
    if (inputGuard === undefined) return valid;
    try {
      return await inputGuard(valid);
    } catch (error) {
      if (isAppError(error) && error.code === 'guard_rejected') {
        guardRefusals.inc();
        // The fact of the rejection is kept, never the content (nor a secret in the workspace name).
        const workspace = (await redactSecrets(valid.workspace)).text;
        await withTenant(db, caller.accountId, (tx) =>
          recordAudit(tx, {
            accountId: caller.accountId,
            action: 'guard.rejected',
            actorUserId: caller.userId,
            actorKeyId: caller.keyId,
            data: { reason: error.message, workspace },
          }),
        );
      }
      throw error;
    }
  }

  return {
    guardInput: (valid) => (inputGuard === undefined ? Promise.resolve(valid) : inputGuard(valid)),
    async remember(session, input, options = {}) {
      const idempotencyKey =
        options.idempotencyKey === undefined || !protections.idempotency
          ? undefined
          : validateIdempotencyKey(options.idempotencyKey);
      const valid = validateRememberInput(input);
      const { caller, plan, notice } = await enter(session, 'full');
      const record = await rememberRecord(database, {
        caller,
        plan,
        input: await guarded(caller, valid),
        idempotencyKey,
        countRecords: protections.limits,
      }).catch(rethrowAsAppError);
      return withNotice(record, notice);
    },
    async search(session, input) {
      const { caller, notice } = await enter(session, 'read_only');
      const found = await searchRecords(db, caller, input, deps.expander).catch(rethrowAsAppError);
      return withNotice(found, notice);
    },
    async forget(session, input) {
      const { caller, notice } = await enter(session, 'full');
      return withNotice(await forgetRecord(db, caller, input).catch(rethrowAsAppError), notice);
    },
    async validate(session, input) {
      const { caller, notice } = await enter(session, 'read_only');
      return withNotice(await validateMemory(db, caller, input).catch(rethrowAsAppError), notice);
    },
    async uploadSessions(session, body) {
      const parsed = sessionBatchSchema.safeParse(body);
      if (!parsed.success) {
        throw new AppError('invalid_input', `invalid upload batch: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
      }
      const { caller, plan } = await enter(session, 'full');
      return uploadSessionBatch(db, caller, plan, parsed.data);
    },
    async searchSessions(session, input) {
      const { caller, notice } = await enter(session, 'read_only');
      return withNotice(await searchSessions(db, caller, input), notice);
    },
  };
}
