import { AppError } from '../errors.ts';
import type { MemorySession } from '../memory/memory-session.ts';

export const READ_SCOPE = 'memory:read';
export const WRITE_SCOPE = 'memory:write';
export const SCOPES = [READ_SCOPE, WRITE_SCOPE] as const;
export type Scope = (typeof SCOPES)[number];

/** The scope each tool needs: reads need memory:read, writes memory:write. */
const TOOL_SCOPES: Readonly<Record<string, Scope>> = {
  search: READ_SCOPE,
  validate_memory: READ_SCOPE,
  search_sessions: READ_SCOPE,
  remember: WRITE_SCOPE,
  forget: WRITE_SCOPE,
};

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** The scope of a kind of access, as the memory service's entry decides it. */
export function scopeForAccess(needs: 'full' | 'read_only'): Scope {
  return needs === 'full' ? WRITE_SCOPE : READ_SCOPE;
}

export function insufficientScope(scope: Scope): AppError {
  return new AppError('insufficient_scope', `insufficient_scope: this token lacks the scope ${scope}`, { scope });
}

/** Throws insufficient_scope when a token's session lacks the scope; a key's session has every scope. */
export function requireScope(session: Pick<MemorySession, 'scopes'>, scope: Scope): void {
  if (session.scopes !== undefined && !session.scopes.includes(scope)) throw insufficientScope(scope);
}

/**
 * For a JSON-RPC body that calls a tool, the scope check a transport makes before the tool runs,
 * so a token without it gets HTTP 403 (RFC 6750) rather than a tool error. Unknown tools and other
 * methods pass: the tool list and the SDK's own answers need no scope.
 */
export function requireToolScope(session: Pick<MemorySession, 'scopes'>, body: unknown): void {
  if (session.scopes === undefined) return;
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, params } = message as { method?: unknown; params?: unknown };
    if (method !== 'tools/call' || typeof params !== 'object' || params === null) continue;
    const name = (params as { name?: unknown }).name;
    const scope = typeof name === 'string' ? TOOL_SCOPES[name] : undefined;
    if (scope !== undefined) requireScope(session, scope);
  }
}
