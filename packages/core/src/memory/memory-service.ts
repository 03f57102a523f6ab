import type { Db } from '@mmw/db';
import type { Caller } from '../caller.ts';
import { AppError, messages } from '../errors.ts';
import { forgetRecord, type ForgetInput, type ForgetOutput } from './forget.ts';
import { validateRememberInput, type RememberInput } from './record-input.ts';
import type { RecordView } from './record-view.ts';
import { storeRecord } from './remember.ts';
import { searchRecords, type SearchInput, type SearchOutput } from './search.ts';
import { validateMemory, type ValidateInput, type ValidateOutput } from './validate-memory.ts';

/** An authenticated caller of the memory tools, as the transport resolved it. */
export interface MemorySession {
  caller: Caller;
  projectActive: boolean;
}

export interface RememberOptions {
  idempotencyKey?: string | undefined;
}

export interface MemoryService {
  remember(session: MemorySession, input: RememberInput, options?: RememberOptions): Promise<RecordView>;
  search(session: MemorySession, input: SearchInput): Promise<SearchOutput>;
  forget(session: MemorySession, input: ForgetInput): Promise<ForgetOutput>;
  validate(session: MemorySession, input: ValidateInput): Promise<ValidateOutput>;
}

function assertProjectActive(session: MemorySession): Caller {
  if (!session.projectActive) throw new AppError('project_unavailable', messages.projectUnavailable);
  return session.caller;
}

/** The memory tools with every rule that applies to them, for every door (MCP, dashboard, jobs). */
export function createMemoryService(db: Db): MemoryService {
  return {
    async remember(session, input) {
      const caller = assertProjectActive(session);
      const valid = validateRememberInput(input);
      return storeRecord(db, caller, valid);
    },
    async search(session, input) {
      return searchRecords(db, assertProjectActive(session), input);
    },
    async forget(session, input) {
      return forgetRecord(db, assertProjectActive(session), input);
    },
    async validate(session, input) {
      return validateMemory(db, assertProjectActive(session), input);
    },
  };
}
