import type { SubscriptionFacts } from '../billing/entitlement.ts';
import type { Caller } from '../caller.ts';
import type { CallWindows, LimitState } from '../limits/call-limits.ts';

/** An authenticated caller of the memory tools, as the transport resolved it. */
export interface MemorySession {
  caller: Caller;
  /** False when the key's project was deleted or deactivated: tools answer with the spec's error. */
  projectActive: boolean;
  /** A read-only key: search and validate_memory only. */
  readOnly?: boolean;
  plan: string;
  /** An OAuth token's granted scopes; undefined for a key, which may do what its member may. */
  scopes?: readonly string[];
  /** The account's tool calls this month before this one, as counted so far (the plan's allowance). */
  callsThisMonth?: number;
  subscription: SubscriptionFacts | undefined;
  /** The call's limit windows, when they were counted with the key (CallerAuthenticator.authenticate). */
  windows?: CallWindows;
  /** Told the state of the call limits of each call, so a transport can answer with headers. */
  onLimits?: (state: LimitState) => void;
}
