import type { IncomingHttpHeaders } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import {
  JSONRPCRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * The request of a body that is one JSON-RPC `tools/call`, with the headers the Streamable HTTP
 * transport asks for (Accept of JSON and event streams, a JSON Content-Type, a supported
 * MCP-Protocol-Version or none); undefined for anything else, which the SDK's own transport answers.
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
    (version !== undefined && (typeof version !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(version)))
  ) {
    return undefined;
  }
  const parsed = JSONRPCRequestSchema.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A transport for one request, already read and checked by singleToolCall: the server's answer to it
 * is the HTTP response's JSON body. It does for a lone tool call what the SDK's web-standard transport
 * does in its stateless JSON mode, without building a web Request and Response around it (a third of
 * the MCP layer's CPU per call; docs/decisions/0014-one-call-transport.md).
 */
export class OneCallTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private answered!: (message: JSONRPCMessage) => void;
  /** The server's response to the request. */
  readonly answer = new Promise<JSONRPCMessage>((resolve) => (this.answered = resolve));

  constructor(
    private readonly request: JSONRPCRequest,
    private readonly headers: IncomingHttpHeaders,
  ) {}

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Delivers the request to the server connected to this transport. */
  deliver(): void {
    this.onmessage?.(this.request, { requestInfo: { headers: this.headers } });
  }

  /** Only the response to the request is kept: a stateless server has nowhere to send anything else. */
  send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) && 'id' in message && message.id === this.request.id) this.answered(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.onclose?.();
    return Promise.resolve();
  }
}
