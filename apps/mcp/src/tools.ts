import type {
  CallToolResult,
  McpServer,
  ServerContext,
  StandardSchemaWithJSON,
  ToolAnnotations,
} from '@modelcontextprotocol/server';
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
  /**
   * The result of a call that already ran, handed to the SDK to answer with instead of running the
   * tool again (lone-tool-call.ts, when the result fails the tool's output schema).
   */
  ranWith?: CallToolResult;
}

/** The context of a call, found by what the SDK hands its tool (the request's id, as the server knows it). */
export type ContextOf = (extra: ServerContext) => ToolContext | undefined;

/** A memory tool: how clients see it, and what it does with input its inputSchema has accepted. */
export interface MemoryTool {
  config: {
    title: string;
    description: string;
    inputSchema: StandardSchemaWithJSON;
    outputSchema: StandardSchemaWithJSON;
    annotations: ToolAnnotations;
  };
  work: (input: unknown, ctx: ToolContext) => Promise<Record<string, unknown>>;
}

function memoryTool<I extends StandardSchemaWithJSON>(
  config: MemoryTool['config'] & { inputSchema: I },
  work: (input: StandardSchemaWithJSON.InferOutput<I>, ctx: ToolContext) => Promise<Record<string, unknown>>,
): MemoryTool {
  // The input reaches work only once inputSchema has accepted it, as the schema's output.
  return { config, work };
}

/** The memory tools (and search_sessions) by name: what every server registers, and what lone calls run. */
export function memoryTools(service: MemoryService): ReadonlyMap<string, MemoryTool> {
  return new Map([
    [
      'remember',
      memoryTool(
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
        (input, ctx) => service.remember(ctx.session, input, { idempotencyKey: ctx.idempotencyKey }),
      ),
    ],
    [
      'search',
      memoryTool(
        {
          title: 'Search memory',
          description: searchDescription,
          inputSchema: schemas.searchInput,
          outputSchema: schemas.searchOutput,
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
        async (input, ctx) => ({ ...(await service.search(ctx.session, input)) }),
      ),
    ],
    [
      'forget',
      memoryTool(
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
        async (input, ctx) => ({ ...(await service.forget(ctx.session, input)) }),
      ),
    ],
    [
      'validate_memory',
      memoryTool(
        {
          title: 'Validate memory against a source',
          description: validateDescription,
          inputSchema: schemas.validateInput,
          outputSchema: schemas.validateOutput,
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
        async (input, ctx) => ({ ...(await service.validate(ctx.session, input)) }),
      ),
    ],
    [
      'search_sessions',
      memoryTool(
        {
          title: 'Search uploaded sessions',
          description: searchSessionsDescription,
          inputSchema: schemas.searchSessionsInput,
          outputSchema: schemas.searchSessionsOutput,
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
        async (input, ctx) => ({ ...(await service.searchSessions(ctx.session, input)) }),
      ),
    ],
  ]);
}

/** Runs a tool for a call: its result, or the tool error a failure becomes (an overload is noted on the context). */
export async function runTool(tool: MemoryTool, input: unknown, ctx: ToolContext): Promise<CallToolResult> {
  if (ctx.ranWith !== undefined) return ctx.ranWith;
  try {
    return toolResult(await tool.work(input, ctx));
  } catch (error) {
    if (isAppError(error) && error.code === 'overloaded') ctx.overloaded = error;
    return toolError(error, ctx.logError);
  }
}

/** Registers the memory tools on a server; each finds its request's context with contextOf. */
export function registerMemoryTools(server: McpServer, tools: ReadonlyMap<string, MemoryTool>, contextOf: ContextOf): void {
  for (const [name, tool] of tools) {
    server.registerTool(name, tool.config, (input, extra) => {
      const ctx = contextOf(extra);
      // Not reached: every call is delivered with its context.
      if (!ctx) throw new Error('the call has no context');
      return runTool(tool, input, ctx);
    });
  }
}
