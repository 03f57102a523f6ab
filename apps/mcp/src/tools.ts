import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  forgetInputShape,
  forgetOutputShape,
  noticeShape,
  recordViewSchema,
  rememberInputShape,
  searchInputShape,
  searchOutputShape,
  validateInputShape,
  validateOutputShape,
  type MemoryService,
  type MemorySession,
} from '@mmw/core';
import {
  forgetDescription,
  rememberDescription,
  searchDescription,
  validateDescription,
} from './tool-descriptions.ts';
import { toolError, toolResult } from './tool-result.ts';

// Built once: the SDK turns a raw shape into an object schema on every registration, and a server
// (with its four tools) is registered for every request.
const schemas = {
  rememberInput: z.object(rememberInputShape),
  rememberOutput: z.object({ ...recordViewSchema.shape, ...noticeShape }),
  searchInput: z.object(searchInputShape),
  searchOutput: z.object({ ...searchOutputShape, ...noticeShape }),
  forgetInput: z.object(forgetInputShape),
  forgetOutput: z.object({ ...forgetOutputShape, ...noticeShape }),
  validateInput: z.object(validateInputShape),
  validateOutput: z.object({ ...validateOutputShape, ...noticeShape }),
};

export interface ToolContext {
  service: MemoryService;
  session: MemorySession;
  idempotencyKey: string | undefined;
  logError: (error: unknown) => void;
}

/** The tools' names, as tools/list gives them and tools/call takes them. */
export const MEMORY_TOOLS = ['remember', 'search', 'forget', 'validate_memory'] as const;

export function isMemoryTool(name: string): name is (typeof MEMORY_TOOLS)[number] {
  return (MEMORY_TOOLS as readonly string[]).includes(name);
}

/**
 * Registers the memory tools on a server, all of them or only those named: a server that answers one
 * tools/call needs only the tool it calls (each registration costs about 12 µs of CPU, mostly
 * garbage; a tool it does not have is answered as unknown, as it would be with all four).
 */
export function registerMemoryTools(
  server: McpServer,
  ctx: ToolContext,
  only: readonly string[] = MEMORY_TOOLS,
): void {
  const run = async (work: () => Promise<Record<string, unknown>>) => {
    try {
      return toolResult(await work());
    } catch (error) {
      return toolError(error, ctx.logError);
    }
  };

  if (only.includes('remember'))
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
      (input) => run(() => ctx.service.remember(ctx.session, input, { idempotencyKey: ctx.idempotencyKey })),
    );

  if (only.includes('search'))
    server.registerTool(
      'search',
      {
        title: 'Search memory',
        description: searchDescription,
        inputSchema: schemas.searchInput,
        outputSchema: schemas.searchOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (input) => run(async () => ({ ...(await ctx.service.search(ctx.session, input)) })),
    );

  if (only.includes('forget'))
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
      (input) => run(async () => ({ ...(await ctx.service.forget(ctx.session, input)) })),
    );

  if (only.includes('validate_memory'))
    server.registerTool(
      'validate_memory',
      {
        title: 'Validate memory against a source',
        description: validateDescription,
        inputSchema: schemas.validateInput,
        outputSchema: schemas.validateOutput,
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      (input) => run(async () => ({ ...(await ctx.service.validate(ctx.session, input)) })),
    );
}
