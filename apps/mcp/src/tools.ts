import type { McpServer, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import {
  forgetInputShape,
  isAppError,
  forgetOutputShape,
  noticeShape,
  recordViewSchema,
  rememberInputShape,
  searchInputShape,
  searchOutputShape,
  searchSessionsInputShape,
  searchSessionsOutputShape,
  validateInputShape,
  validateOutputShape,
  type AppError,
  type MemoryService,
  type MemorySession,
} from '@mmw/core';
import {
  forgetDescription,
  rememberDescription,
  searchDescription,
  searchSessionsDescription,
  validateDescription,
} from './tool-descriptions.ts';
import { portable } from './portable-schema.ts';
import { toolError, toolResult } from './tool-result.ts';

// Built once: requests other than a lone tool call get a server (with its tools) of their own. Their
// JSON Schemas write a nullable parameter as `anyOf` branches of one type each (portable-schema.ts).
export const toolSchemas = {
  rememberInput: portable(z.object(rememberInputShape)),
  rememberOutput: portable(z.object({ ...recordViewSchema.shape, ...noticeShape })),
  searchInput: portable(z.object(searchInputShape)),
  searchOutput: portable(z.object({ ...searchOutputShape, ...noticeShape })),
  forgetInput: portable(z.object(forgetInputShape)),
  forgetOutput: portable(z.object({ ...forgetOutputShape, ...noticeShape })),
  validateInput: portable(z.object(validateInputShape)),
  validateOutput: portable(z.object({ ...validateOutputShape, ...noticeShape })),
  searchSessionsInput: portable(z.object(searchSessionsInputShape)),
  searchSessionsOutput: portable(z.object({ ...searchSessionsOutputShape, ...noticeShape })),
};
const schemas = toolSchemas;

/** What a tool needs of the request that called it. */
export interface ToolContext {
  session: MemorySession;
  idempotencyKey: string | undefined;
  logError: (error: unknown) => void;
  /** Set when the call met an overload: the request is answered 503 with Retry-After, not a tool result. */
  overloaded?: AppError;
}

/** The context of a call, found by what the SDK hands its tool (the request's id, as the server knows it). */
export type ContextOf = (extra: ServerContext) => ToolContext | undefined;

/** Registers the memory tools (and search_sessions) on a server; each finds its request's context with contextOf. */
export function registerMemoryTools(server: McpServer, service: MemoryService, contextOf: ContextOf): void {
  const run = async (
    extra: ServerContext,
    work: (ctx: ToolContext) => Promise<Record<string, unknown>>,
  ) => {
    const ctx = contextOf(extra);
    // Not reached: every call is delivered with its context.
    if (!ctx) throw new Error('the call has no context');
    try {
      return toolResult(await work(ctx));
    } catch (error) {
      if (isAppError(error) && error.code === 'overloaded') ctx.overloaded = error;
      return toolError(error, ctx.logError);
    }
  };

  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description: rememberDescription,
      inputSchema: schemas.rememberInput,
      outputSchema: schemas.rememberOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (input, extra) =>
      run(extra, (ctx) => service.remember(ctx.session, input, { idempotencyKey: ctx.idempotencyKey })),
  );

  server.registerTool(
    'search',
    {
      title: 'Search memory',
      description: searchDescription,
      inputSchema: schemas.searchInput,
      outputSchema: schemas.searchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => run(extra, async (ctx) => ({ ...(await service.search(ctx.session, input)) })),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a record',
      description: forgetDescription,
      inputSchema: schemas.forgetInput,
      outputSchema: schemas.forgetOutput,
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (input, extra) => run(extra, async (ctx) => ({ ...(await service.forget(ctx.session, input)) })),
  );

  server.registerTool(
    'validate_memory',
    {
      title: 'Validate memory against a source',
      description: validateDescription,
      inputSchema: schemas.validateInput,
      outputSchema: schemas.validateOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => run(extra, async (ctx) => ({ ...(await service.validate(ctx.session, input)) })),
  );

  server.registerTool(
    'search_sessions',
    {
      title: 'Search uploaded sessions',
      description: searchSessionsDescription,
      inputSchema: schemas.searchSessionsInput,
      outputSchema: schemas.searchSessionsOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (input, extra) => run(extra, async (ctx) => ({ ...(await service.searchSessions(ctx.session, input)) })),
  );
}
