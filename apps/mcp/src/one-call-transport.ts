import type { IncomingHttpHeaders } from 'node:http';
import {
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';

/** The members of a JSON-RPC request, as the SDK's strict request schema allows them. */
const REQUEST_MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** Whether a request's params carry the 2026-07-28 envelope claim (`_meta` naming a protocol version). */
function hasEnvelopeClaim(body: object): boolean {
  if (!('params' in body) || typeof body.params !== 'object' || body.params === null) return false;
  const meta = (body.params as { _meta?: unknown })._meta;
  return typeof meta === 'object' && meta !== null && PROTOCOL_VERSION_META_KEY in meta;
}

/**
 * The request of a body that is one JSON-RPC `tools/call` of the 2025-era revisions, with the headers
 * the Streamable HTTP transport asks for (Accept of JSON and event streams, a JSON Content-Type, a
 * 2025-era MCP-Protocol-Version (the SDK's SUPPORTED_PROTOCOL_VERSIONS) or none, no Mcp-Method header and no per-request envelope); undefined
 * for anything else, which the SDK's handler answers (every request of the 2026-07-28 revision among
 * them, so its header and envelope checks stay the SDK's).
 */
export function singleToolCall(headers: IncomingHttpHeaders, body: unknown): JSONRPCRequest | undefined {
  const accept = headers.accept;
  const version = headers['mcp-protocol-version'];
  if (
    typeof body !== 'object' ||
    body === null ||
    Array.isArray(body) ||
    !('method' in body) ||
    body.method !== 'tools/call' ||
    typeof accept !== 'string' ||
    !accept.includes('application/json') ||
    !accept.includes('text/event-stream') ||
    !isJsonContentType(headers['content-type']) ||
    (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version))) ||
    headers['mcp-method'] !== undefined ||
    hasEnvelopeClaim(body)
  ) {
    return undefined;
  }
  // The checks of the SDK's JSON-RPC request schema, without a zod parse of the whole body (the
  // server parses the call's params itself). The schema is strict: a body with any other member is
  // not a request to the server, which would never answer it, so the SDK's transport refuses it.
  if (Object.keys(body).some((key) => !REQUEST_MEMBERS.has(key))) return undefined;
  const { jsonrpc, id, params } = body as { jsonrpc?: unknown; id?: unknown; params?: unknown };
  const validId = typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
  const validParams = params === undefined || (typeof params === 'object' && params !== null && !Array.isArray(params));
  return jsonrpc === '2.0' && validId && validParams ? (body as JSONRPCRequest) : undefined;
}

/**
 * The transport of the one server, built once, that answers the lone tool calls (checked by
 * singleToolCall) which answerLoneToolCall leaves to the SDK: the server's response to a call is the
 * HTTP response's JSON body. It does for a lone tool call what the SDK's web-standard transport does
 * in its stateless JSON mode, without a web Request and Response around it
 * (docs/decisions/0014-one-call-transport.md), and without a server and its tool built for each
 * request (0016). Clients number their requests on their own (most send id
 * 1), so each call is delivered under an id of this transport's, and its response goes back under the
 * id it was sent with; what the tool needs of its request is kept under that id until it is answered.
 */
export class ToolCallTransport<C> implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private lastId = 0;
  private readonly calls = new Map<
    number,
    { id: RequestId; context: C; answered: (message: JSONRPCMessage) => void }
  >();

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Delivers the call to the server connected to this transport; answers with its response. */
  call(request: JSONRPCRequest, context: C): Promise<JSONRPCMessage> {
    this.lastId = this.lastId === Number.MAX_SAFE_INTEGER ? 1 : this.lastId + 1;
    const id = this.lastId;
    return new Promise((answered) => {
      this.calls.set(id, { id: request.id, context, answered });
      this.onmessage?.({ ...request, id });
    });
  }

  /** What the call the server knows by this id was delivered with. */
  contextOf(requestId: RequestId): C | undefined {
    return typeof requestId === 'number' ? this.calls.get(requestId)?.context : undefined;
  }

  /** Only responses are kept, each for its call: a stateless server has nowhere to send anything else. */
  send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return Promise.resolve();
    const call = this.calls.get(message.id);
    if (call) {
      this.calls.delete(message.id);
      call.answered({ ...message, id: call.id });
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}
