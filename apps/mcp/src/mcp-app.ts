import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { isAppError, type MemoryService, type MemorySession } from '@mmw/core';
import { setLimitHeaders } from './limit-headers.ts';
import { isDatabaseReady, type Db } from '@mmw/db';
import { singleToolCall, ToolCallTransport } from './one-call-transport.ts';
import { describeError } from './safe-log.ts';
import { registerMemoryTools, type ToolContext } from './tools.ts';

export interface McpAppOptions {
  db: Db;
  service: MemoryService;
  logLevel?: string;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  version?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    session?: MemorySession;
  }
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** The request as the SDK's web-standard transport reads it: method, URL and headers (the body is parsed). */
function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  return new Request(`http://${request.host}${request.url}`, { method: request.method, headers });
}

/** A JSON-RPC body that is one tools/call: its call is counted with the key (initialize and the like are not). */
function isToolCall(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'method' in body && body.method === 'tools/call';
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export async function buildMcpApp(options: McpAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });

  app.setErrorHandler((error: { statusCode?: unknown; message?: unknown }, request, reply) => {
    const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: describeError(error) }, 'request failed');
    const message = status >= 500 || typeof error.message !== 'string' ? 'internal error' : error.message;
    return jsonRpcError(reply, status, status === 400 ? -32700 : -32600, message);
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (await isDatabaseReady(options.db)) return { status: 'ready' };
    return reply.status(503).send({ status: 'unavailable' });
  });

  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) => {
    await jsonRpcError(
      reply.header('allow', 'POST'),
      405,
      -32000,
      'Method not allowed: this server is stateless; use POST',
    );
  };
  // Answered before the body is read: a stateless server has no stream to open and no session to end.
  app.route({ method: ['GET', 'DELETE'], url: '/mcp', onRequest: notAllowed, handler: notAllowed });

  // The SDK builds a JSON Schema validator (a new Ajv) for every server it creates unless given one;
  // one shared validator saves about a millisecond of CPU for each server built for a request.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const newServer = () =>
    new McpServer({ name: 'mmw', version: options.version ?? '0.1.0' }, { jsonSchemaValidator });

  // Lone tool calls, nearly every request, are answered by one server built here with its tools:
  // it keeps no state of a client's, so any replica still answers any request (decision 0016). It
  // is never closed: it holds no socket and no timer, and closing it would abort the calls still
  // in flight while the app closes.
  const toolCalls = new ToolCallTransport<ToolContext>();
  const toolServer = newServer();
  registerMemoryTools(toolServer, options.service, (extra) => toolCalls.contextOf(extra.requestId));
  await toolServer.connect(toolCalls);

  app.post('/mcp', {
    preHandler: async (request, reply) => {
      const token = bearerToken(request);
      try {
        if (token === undefined) throw new Error('missing');
        request.session = await options.service.authenticate(token, { toolCall: isToolCall(request.body) });
      } catch (error) {
        if (!isAppError(error) && !(error instanceof Error && error.message === 'missing')) {
          request.log.error({ err: describeError(error) }, 'key authentication failed');
          return jsonRpcError(reply, 503, -32603, 'authentication is unavailable, try again');
        }
        reply.header('www-authenticate', 'Bearer realm="mmw", error="invalid_token"');
        return jsonRpcError(
          reply,
          401,
          -32001,
          'Unauthorized: a valid MMW key is required (Authorization: Bearer mmw_…)',
        );
      }
    },
    handler: async (request, reply) => {
      const authenticated = request.session;
      if (!authenticated) return jsonRpcError(reply, 401, -32001, 'Unauthorized');
      const session: MemorySession = {
        ...authenticated,
        onLimits: (state) => setLimitHeaders(reply.raw, state),
      };
      const idempotencyHeader = request.headers['x-idempotency-key'];
      const context: ToolContext = {
        session,
        idempotencyKey: typeof idempotencyHeader === 'string' ? idempotencyHeader : undefined,
        logError: (error) => request.log.error({ err: describeError(error) }, 'tool failed'),
        // An overload (a full Guard pool) is the server's state, not the call's: 503 with Retry-After.
        onOverload: (retryAfterSeconds) => {
          overloadedFor = retryAfterSeconds;
        },
      };
      let overloadedFor: number | undefined;
      const markOverload = () => {
        if (overloadedFor !== undefined) void reply.code(503).header('retry-after', String(overloadedFor));
      };
      const toolCall = singleToolCall(request.headers, request.body);
      if (toolCall !== undefined) {
        const answer = await toolCalls.call(toolCall, request.headers, context);
        markOverload();
        return reply.type('application/json').send(JSON.stringify(answer));
      }
      // Anything else (initialize, the tool list, notifications, batches, a body that is not JSON-RPC)
      // goes to the SDK's web-standard transport, given the request fastify already parsed; its answer
      // (JSON, not a stream) is sent as it is; the request gets a server and transport of its own.
      const server = newServer();
      registerMemoryTools(server, options.service, () => context);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const answer = await transport.handleRequest(webRequest(request), { parsedBody: request.body });
        reply.code(answer.status);
        answer.headers.forEach((value, name) => void reply.header(name, value));
        markOverload();
        return await reply.send(answer.body === null ? '' : Buffer.from(await answer.arrayBuffer()));
      } finally {
        void transport.close();
        void server.close();
      }
    },
  });

  return app;
}
