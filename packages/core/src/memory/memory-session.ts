import type { SubscriptionFacts } from '../billing/entitlement.ts';
import type { Caller } from '../caller.ts';
import type { CallWindows } from '../limits/call-limits.ts';

/** The state of a caller's call limits after a call was counted, for the transport's headers. */
export interface LimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  retryAfterSeconds: number | undefined;
}

/** An authenticated caller of the memory tools, as the transport resolved it. */
export interface MemorySession {
  caller: Caller;
  /** False when the key's project was deleted or deactivated: tools answer with the spec's error. */
  projectActive: boolean;
  /** A read-only key: search and validate_memory only. */
  readOnly?: boolean;
  plan: string;
  subscription: SubscriptionFacts | undefined;
  /** The call's limit windows, when they were counted with the key (MemoryService.authenticate). */
  windows?: CallWindows;
  /** Told the state of the call limits of each call, so a transport can answer with headers. */
  onLimits?: (state: LimitState) => void;
}
