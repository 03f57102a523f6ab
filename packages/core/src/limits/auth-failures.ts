import { createHash } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { LRUCache } from 'lru-cache';

/**
 * Failed authentications at the MCP door, counted per client address in this process (decision
 * 0038). Past the limit, a credential this address has not used successfully in the window is
 * refused before it reaches the database; a key the address used in the last day still goes through, so a
 * guesser sharing an address (a NAT, an office) does not lock its people out. Kept in memory on
 * purpose: its job is to keep unauthenticated load off PostgreSQL, which a counter in PostgreSQL
 * could not do; each replica counts for itself. Both maps are bounded (least recently used goes).
 */
export interface AuthFailureLimitOptions {
  /** Failed authentications per address in a window. */
  limit: number;
  windowMs: number;
  /** How long a credential that authenticated from an address passes it when blocked (a day by default). */
  knownForMs?: number;
  /** Addresses tracked at once; the least recently seen is forgotten first. */
  maxAddresses?: number;
  now?: () => number;
}

interface Window {
  failures: number;
  endsAt: number;
}

/** The bucket of an address: IPv6 by its /64 (what one host is usually given), IPv4 whole. */
export function addressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${parts.map((part) => part.toString(16)).join(':')}::/64`;
}

const fingerprint = (credential: string) => createHash('sha256').update(credential).digest('base64url');

export class AuthFailureLimit {
  private readonly failures: LRUCache<string, Window>;
  /** (address bucket, credential hash) pairs that authenticated: they pass a blocked address. */
  private readonly known: LRUCache<string, number>;
  private readonly now: () => number;

  constructor(private readonly options: AuthFailureLimitOptions) {
    const max = options.maxAddresses ?? 50_000;
    this.now = options.now ?? Date.now;
    this.failures = new LRUCache({ max });
    this.known = new LRUCache({ max });
  }

  /** Seconds to wait when this credential from this address must be refused now; undefined when it may be checked. */
  retryAfterSeconds(address: string, credential: string): number | undefined {
    const bucket = addressBucket(address);
    const window = this.failures.get(bucket);
    if (window === undefined || window.endsAt <= this.now() || window.failures < this.options.limit) return undefined;
    const knownUntil = this.known.get(`${bucket} ${fingerprint(credential)}`);
    if (knownUntil !== undefined && knownUntil > this.now()) return undefined;
    return Math.max(1, Math.ceil((window.endsAt - this.now()) / 1000));
  }

  failed(address: string): void {
    const bucket = addressBucket(address);
    const now = this.now();
    const window = this.failures.get(bucket);
    if (window === undefined || window.endsAt <= now) this.failures.set(bucket, { failures: 1, endsAt: now + this.options.windowMs });
    else window.failures += 1;
  }

  succeeded(address: string, credential: string): void {
    this.known.set(`${addressBucket(address)} ${fingerprint(credential)}`, this.now() + (this.options.knownForMs ?? 86_400_000));
  }
}
