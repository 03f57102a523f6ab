import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { OAuthError } from './oauth-error.ts';

/** How a client id metadata document may be fetched. */
export interface ClientDocumentPolicy {
  /** Development only: http, and loopback addresses, so a test can serve a document locally. */
  allowLoopback: boolean;
  maxBytes: number;
  timeoutMs: number;
}

export const DEFAULT_CLIENT_DOCUMENT_POLICY: ClientDocumentPolicy = {
  allowLoopback: false,
  maxBytes: 5 * 1024,
  timeoutMs: 3000,
};

const refused = (why: string) => new OAuthError('invalid_client', `client id metadata document refused: ${why}`);

/** Public unicast addresses only; with allowLoopback, loopback too. Checked for every address a name has. */
function addressAllowed(address: string, policy: ClientDocumentPolicy): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (policy.allowLoopback && range === 'loopback');
}

/** The URL as a client id: https (http on loopback in development), a path, no credentials or fragment. */
export function clientDocumentUrl(clientId: string, policy: ClientDocumentPolicy): URL {
  if (!URL.canParse(clientId)) throw refused('the client id is not a URL');
  const url = new URL(clientId);
  const httpAllowed = policy.allowLoopback && url.protocol === 'http:';
  if (url.protocol !== 'https:' && !httpAllowed) throw refused('the client id URL must use https');
  if (url.username !== '' || url.password !== '' || url.hash !== '') throw refused('the client id URL must not carry credentials or a fragment');
  if (url.pathname === '/' || url.pathname === '') throw refused('the client id URL must have a path');
  return url;
}

/** Every address of the host, each checked before any connection is made; the first is the one used. */
async function checkedAddresses(hostname: string, policy: ClientDocumentPolicy) {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  const found = ipaddr.isValid(bare)
    ? [{ address: bare, family: ipaddr.parse(bare).kind() === 'ipv6' ? 6 : 4 }]
    : await lookup(bare, { all: true, verbatim: true });
  if (found.length === 0) throw refused('the host has no address');
  for (const entry of found) {
    if (!addressAllowed(entry.address, policy)) throw refused('the host resolves to a private, loopback or reserved address');
  }
  return found;
}

function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(refused(`no complete answer within ${ms} ms`));
    }, ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Fetches a client id metadata document: the host's addresses are resolved and checked first, and
 * the connection is pinned to a checked address (no second lookup a rebinding name could answer
 * differently); no redirect is followed; the whole exchange has one deadline and the body a size
 * bound. Returns the parsed JSON, unvalidated.
 */
export async function fetchClientDocument(url: URL, policy: ClientDocumentPolicy): Promise<unknown> {
  let request: http.ClientRequest | undefined;
  const work = (async () => {
    const addresses = await checkedAddresses(url.hostname, policy);
    const [first] = addresses;
    if (first === undefined) throw refused('the host has no address');
    const pinned: LookupFunction = (_host, options, callback) => {
      if (options.all === true) callback(null, [first]);
      else callback(null, first.address, first.family);
    };
    return await new Promise<unknown>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      request = client.get(url, { lookup: pinned, headers: { accept: 'application/json' } }, (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(refused(`the document's server answered ${response.statusCode ?? 'nothing'}`));
          return;
        }
        const declared = Number(response.headers['content-length'] ?? '0');
        if (declared > policy.maxBytes) {
          response.destroy();
          reject(refused(`the document is larger than ${policy.maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > policy.maxBytes) {
            response.destroy();
            reject(refused(`the document is larger than ${policy.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('error', () => reject(refused('the document could not be read')));
        response.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch {
            reject(refused('the document is not JSON'));
          }
        });
      });
      request.on('error', () => reject(refused('the document could not be fetched')));
    });
  })();
  return withDeadline(work, policy.timeoutMs, () => request?.destroy());
}
