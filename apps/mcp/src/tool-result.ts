import type { CallToolResult } from '@modelcontextprotocol/server';
import { isAppError } from '@mmw/core';

export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return { structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
}

/** Tool errors are isError results whose text starts with the error's text; an unexpected error says nothing of itself. */
export function toolError(error: unknown, log: (error: unknown) => void): CallToolResult {
  if (isAppError(error)) return { isError: true, content: [{ type: 'text', text: error.message }] };
  log(error);
  return { isError: true, content: [{ type: 'text', text: 'internal error: the call was not completed' }] };
}
