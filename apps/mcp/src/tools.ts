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
import { forgetDescription, rememberDescription, searchDescription, validateDescription } from './tool-descriptions.ts';
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

export function registerMemoryTools(server: McpServer, ctx: ToolContext): void {
  const run = async (work: () => Promise<Record<string, unknown>>) => {
    try {
      return toolResult(await work());
    } catch (error) {
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
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (input) =>
      run(() => ctx.service.remember(ctx.session, input, { idempotencyKey: ctx.idempotencyKey })),
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
    (input) => run(async () => ({ ...(await ctx.service.search(ctx.session, input)) })),
  );

  server.registerTool(
    'forget',
    {
      title: 'Forget a record',
      description: forgetDescription,
      inputSchema: schemas.forgetInput,
      outputSchema: schemas.forgetOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (input) => run(async () => ({ ...(await ctx.service.forget(ctx.session, input)) })),
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
    (input) => run(async () => ({ ...(await ctx.service.validate(ctx.session, input)) })),
  );
}
