import {
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  AuthFailureLimit,
  fastifyTrustProxy,
  isAppError,
  protectedResourceMetadata,
  protectedResourceMetadataUrl,
  requireToolScope,
  type AppError,
  type CallerAuthenticator,
  type MemoryService,
  type MemorySession,
} from '@mmw/core';
import { setLimitHeaders } from './limit-headers.ts';
import { isDatabaseReady, type Db } from '@mmw/db';
import { answerLoneToolCall } from './lone-tool-call.ts';
import { singleToolCall, ToolCallTransport } from './one-call-transport.ts';
import { describeError } from './safe-log.ts';
import { registerSessionUpload } from './session-upload-route.ts';
import { memoryTools, registerMemoryTools, type ToolContext } from './tools.ts';

export interface McpAppOptions {
  db: Db;
  /** Resolves the bearer credential of a request to its session (the runtime's authenticator). */
  authenticator: CallerAuthenticator;
  service: MemoryService;
  logLevel?: string;
  /** Largest accepted request body in bytes. */
  bodyLimit?: number;
  version?: string;
  /** Bounds on a request's life: all of it, an idle socket, a kept-alive socket between requests. */
  timeouts?: { requestMs: number; connectionMs: number; keepAliveMs: number };
  /** The MCP endpoint as clients reach it (MCP_PUBLIC_URL); the request's own origin + /mcp by default. */
  resourceUrl?: string | undefined;
  /** The OAuth authorization server's issuer (the dashboard's origin), once it is known. */
  authorizationServer?: () => string | undefined;
  /** TRUST_PROXY, as core's config parses it: whose X-Forwarded-For names the client. */
  trustProxy?: boolean | number | string[];
  /** Failed authentications per client address a minute (MMW_AUTH_FAILURES_PER_MINUTE); 30 by default. */
  authFailuresPerMinute?: number;
}

const DEFAULT_TIMEOUTS = { requestMs: 30_000, connectionMs: 60_000, keepAliveMs: 5_000 };

/**
 * How long a client of the 2026-07-28 revision may keep the tool list and the discovery answer
 * (`ttlMs`, `cacheScope`): the same for every key, changed only by a deployment.
 */
const LIST_CACHE = { ttlMs: 5 * 60_000, cacheScope: 'public' } as const;

declare module 'fastify' {
  interface FastifyRequest {
    session?: MemorySession;
  }
}

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string) {
  return reply.status(status).send({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** A failure of the request itself (not a tool's), answered from core's error table. */
function protocolError(reply: FastifyReply, error: AppError) {
  if (error.retryAfterSeconds !== undefined)
    void reply.header('retry-after', String(error.retryAfterSeconds));
  return jsonRpcError(reply, error.httpStatus, error.jsonRpcCode, error.message);
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
  const timeouts = options.timeouts ?? DEFAULT_TIMEOUTS;
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    requestTimeout: timeouts.requestMs,
    connectionTimeout: timeouts.connectionMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    trustProxy: fastifyTrustProxy(options.trustProxy),
  });
  const authFailures = new AuthFailureLimit({ limit: options.authFailuresPerMinute ?? 30, windowMs: 60_000 });

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
    new McpServer(
      { name: 'mmw', version: options.version ?? '0.1.0' },
      { jsonSchemaValidator, cacheHints: { 'tools/list': LIST_CACHE, 'server/discover': LIST_CACHE } },
    );

  // The tools, built once: every server below registers them, and lone tool calls run them directly.
  const tools = memoryTools(options.service);

  // Lone tool calls (nearly every request) are run directly by answerLoneToolCall; those it leaves
  // to the SDK go to one server built here with its tools: it keeps no state of a client's, so any
  // replica still answers any request (decision 0016). It is never closed: it holds no socket and
  // no timer, and closing it would abort the calls still in flight while the app closes.
  const toolCalls = new ToolCallTransport<ToolContext>();
  const toolServer = newServer();
  registerMemoryTools(toolServer, tools, (extra) => toolCalls.contextOf(extra.mcpReq.id));
  await toolServer.connect(toolCalls);

  // Requests of the 2026-07-28 revision go to the SDK's handler (server/discover, the per-request
  // envelope, the Mcp-Method and Mcp-Name headers, cache hints, the revision's error codes). Its
  // factory builds a server for the request, whose tools find the request's context by the web
  // Request the handler was given. 2025-era requests other than a lone tool call are routed by the
  // SDK's own isLegacyRequest to its stateless transport in JSON mode, as before (decision 0031).
  const contexts = new WeakMap<Request, ToolContext>();
  const modernHandler = createMcpHandler(
    ({ requestInfo }) => {
      const server = newServer();
      const context = requestInfo === undefined ? undefined : contexts.get(requestInfo);
      registerMemoryTools(server, tools, (extra) =>
        extra.http?.req === undefined ? context : (contexts.get(extra.http.req) ?? context),
      );
      return server;
    },
    {
      legacy: 'reject',
      onerror: (error) => app.log.debug({ err: describeError(error) }, 'MCP request refused'),
    },
  );
  app.addHook('onClose', async () => modernHandler.close());

  /** A 2025-era request: a server and a stateless transport of its own, answering in JSON. */
  const answerLegacy = async (web: Request, body: unknown, context: ToolContext): Promise<Response> => {
    const server = newServer();
    registerMemoryTools(server, tools, () => context);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    try {
      await server.connect(transport);
      return await transport.handleRequest(web, { parsedBody: body });
    } finally {
      void transport.close();
      void server.close();
    }
  };

  const resourceOf = (request: FastifyRequest) => options.resourceUrl ?? `${request.protocol}://${request.host}/mcp`;

  // RFC 9728: where a connector learns which authorization server issues tokens for this endpoint.
  const resourceMetadata = async (request: FastifyRequest, reply: FastifyReply) => {
    const issuer = options.authorizationServer?.();
    if (issuer === undefined) return reply.status(404).send({ error: 'not found' });
    return reply.header('cache-control', 'max-age=300').send(protectedResourceMetadata(resourceOf(request), issuer));
  };
  app.get('/.well-known/oauth-protected-resource', resourceMetadata);
  app.get('/.well-known/oauth-protected-resource/mcp', resourceMetadata);

  const keyAuth = async (request: FastifyRequest, reply: FastifyReply) => {
    const token = bearerToken(request);
    const isKey = token?.startsWith('mmw_') === true;
    // Past its limit of failures, an address's credentials are refused before the database is asked,
    // except one that authenticated from it lately (decision 0038).
    const wait = token === undefined ? undefined : authFailures.retryAfterSeconds(request.ip, token);
    if (wait !== undefined) {
      return jsonRpcError(reply.header('retry-after', String(wait)), 429, -32001, 'too many failed authentications from this address; try again later');
    }
    try {
      if (token === undefined) throw new Error('missing');
      request.session = isKey
        ? await options.authenticator.authenticate(token, { toolCall: isToolCall(request.body) })
        : await options.authenticator.authenticateAccessToken(token, {
            resource: resourceOf(request),
            toolCall: isToolCall(request.body),
          });
      authFailures.succeeded(request.ip, token);
      requireToolScope(request.session, request.body);
    } catch (error) {
      if (isAppError(error) && error.code === 'insufficient_scope') {
        reply.header('www-authenticate', `Bearer error="insufficient_scope", scope="${error.scope ?? ''}"`);
        return protocolError(reply, error);
      }
      if (isAppError(error) && error.code !== 'unauthorized') return protocolError(reply, error);
      if (!isAppError(error) && !(error instanceof Error && error.message === 'missing')) {
        request.log.error({ err: describeError(error) }, 'key authentication failed');
        return jsonRpcError(reply, 503, -32603, 'authentication is unavailable, try again');
      }
      if (token !== undefined) authFailures.failed(request.ip);
      // A bad key keeps the plain challenge: some clients drop a configured header once they see
      // resource_metadata. No credential, or a bad OAuth token, points to the authorization server.
      const metadata = `resource_metadata="${protectedResourceMetadataUrl(resourceOf(request))}"`;
      reply.header(
        'www-authenticate',
        isKey
          ? 'Bearer realm="mmw", error="invalid_token"'
          : token === undefined
            ? `Bearer ${metadata}`
            : `Bearer ${metadata}, error="invalid_token"`,
      );
      return jsonRpcError(
        reply,
        401,
        -32001,
        'Unauthorized: a valid MMW key is required (Authorization: Bearer mmw_…)',
      );
    }
  };

  registerSessionUpload(app, options.service, keyAuth);

  app.post('/mcp', {
    preHandler: keyAuth,
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
      };
      const toolCall = singleToolCall(request.headers, request.body);
      if (toolCall !== undefined) {
        const answer =
          (await answerLoneToolCall(tools, toolCall, context)) ?? (await toolCalls.call(toolCall, context));
        if (context.overloaded) return protocolError(reply, context.overloaded);
        return reply.type('application/json').send(JSON.stringify(answer));
      }
      // Anything else (initialize, server/discover, the tool list, notifications, batches, every
      // request of the 2026-07-28 revision, a body that is not JSON-RPC) goes to the SDK, given the
      // request fastify already parsed; its answer (JSON: the tools send nothing before their
      // result, so it never turns into a stream) is sent as it is.
      const web = webRequest(request);
      contexts.set(web, context);
      const answer = (await isLegacyRequest(web, request.body))
        ? await answerLegacy(web, request.body, context)
        : await modernHandler.fetch(web, { parsedBody: request.body });
      if (context.overloaded) return protocolError(reply, context.overloaded);
      reply.code(answer.status);
      answer.headers.forEach((value, name) => void reply.header(name, value));
      if (answer.body === null) return reply.send('');
      // A stream (a 2026-07-28 client's subscriptions/listen) is passed on as it comes; the client
      // ends it by closing the connection.
      if (answer.headers.get('content-type')?.startsWith('text/event-stream') === true) {
        const stream = Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>);
        request.raw.once('close', () => void stream.destroy());
        return reply.send(stream);
      }
      return reply.send(Buffer.from(await answer.arrayBuffer()));
    },
  });

  return app;
}
