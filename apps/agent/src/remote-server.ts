import { LATEST_PROTOCOL_VERSION, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Credentials } from './credentials.ts';
import { TransientError, withRetry } from './retry.ts';

const ATTEMPT_TIMEOUT_MS = 20_000;
const RETRIED_STATUSES = new Set([408, 502, 503, 504]);

/** A failure the server answered with (a bad key, a refused request): told to the user as it is. */
export class ServerRefusal extends Error {}

/** The MMW server's MCP endpoint, called as plain JSON-RPC over HTTP with the key. */
export class RemoteServer {
  private nextId = 1;

  constructor(
    private readonly credentials: Credentials,
    private readonly retryMs: number,
  ) {}

  async listTools(): Promise<Tool[]> {
    const result = (await this.request('tools/list', {})) as { tools?: Tool[] };
    return result.tools ?? [];
  }

  /** A tool call; idempotencyKey goes with every attempt, so a retried write is stored once. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<CallToolResult> {
    return (await this.request('tools/call', { name, arguments: args }, idempotencyKey)) as CallToolResult;
  }

  /** POSTs JSON to a route of the server's origin (the session upload), with the same retries. */
  async postJson(url: string, body: unknown): Promise<unknown> {
    return withRetry(async () => {
      const response = await this.send(url, JSON.stringify(body), {});
      const text = await response.text();
      if (!response.ok) throw new ServerRefusal(`${response.status}: ${errorText(text)}`);
      return JSON.parse(text) as unknown;
    }, this.retryMs);
  }

  private async request(
    method: string,
    params: Record<string, unknown>,
    idempotencyKey?: string,
  ): Promise<unknown> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method, params });
    const headers: Record<string, string> = { 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
    if (idempotencyKey !== undefined) headers['x-idempotency-key'] = idempotencyKey;
    return withRetry(async () => {
      const response = await this.send(this.credentials.url, body, headers);
      const text = await response.text();
      const message = parseJsonRpc(text, response.headers.get('content-type'));
      if (message?.error) throw new ServerRefusal(message.error.message ?? `HTTP ${response.status}`);
      if (!response.ok || !message) throw new ServerRefusal(`HTTP ${response.status}`);
      return message.result;
    }, this.retryMs);
  }

  /** One attempt; what means "try again" (no answer, a busy server) is a TransientError. */
  private async send(url: string, body: string, headers: Record<string, string>): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.credentials.key}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
    } catch (error) {
      throw new TransientError(reasonOf(error));
    }
    if (RETRIED_STATUSES.has(response.status)) {
      await response.body?.cancel();
      throw new TransientError(`HTTP ${response.status}`);
    }
    return response;
  }
}

interface JsonRpcMessage {
  result?: unknown;
  error?: { message?: string };
}

/** The JSON-RPC answer in a JSON body or in the first data line of an event stream. */
function parseJsonRpc(text: string, contentType: string | null): JsonRpcMessage | undefined {
  const json = contentType?.includes('text/event-stream')
    ? text
        .split('\n')
        .find((line) => line.startsWith('data:'))
        ?.slice(5)
    : text;
  try {
    const parsed = JSON.parse(json ?? '') as unknown;
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function errorText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error;
    if (typeof parsed.error === 'object' && parsed.error !== null && 'message' in parsed.error)
      return String(parsed.error.message);
  } catch {
    // not JSON: the status says enough
  }
  return 'the server refused the request';
}

function reasonOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? error.cause.message : undefined;
    return cause ?? error.message;
  }
  return 'no answer';
}
