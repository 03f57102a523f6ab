import type { CallToolResult, JSONRPCRequest, JSONRPCResultResponse } from '@modelcontextprotocol/server';
import { runTool, type MemoryTool, type ToolContext } from './tools.ts';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A tool result as the SDK's 2025-era codec writes it (in its schema's key order), so both paths send the same bytes. */
function wireResult(result: CallToolResult): CallToolResult {
  return {
    content: result.content,
    ...(result.structuredContent !== undefined && { structuredContent: result.structuredContent }),
    ...(result.isError !== undefined && { isError: result.isError }),
  };
}

/**
 * Answers a lone 2025-era tool call (singleToolCall) without the SDK's dispatch when only the tool
 * itself can fail: params of a known tool's name and arguments its input schema accepts, nothing
 * else (no `_meta`). The tool's input and output schemas are checked as the SDK checks them; what is
 * saved is the SDK's zod parsing of the message and of its own result and its dispatch: about a
 * third of the CPU per call that `BENCH_ONLY=mcp-layer` measures (decision 0031). Undefined when the SDK must answer, with its texts: an unknown tool, refused
 * arguments, any other params; and a result the output schema refuses, which the SDK is handed
 * (ToolContext.ranWith) so that it words the error without running the tool again.
 */
export async function answerLoneToolCall(
  tools: ReadonlyMap<string, MemoryTool>,
  call: JSONRPCRequest,
  ctx: ToolContext,
): Promise<JSONRPCResultResponse | undefined> {
  const params: unknown = call.params;
  if (!isPlainObject(params) || Object.keys(params).some((key) => key !== 'name' && key !== 'arguments')) return undefined;
  const tool = typeof params.name === 'string' ? tools.get(params.name) : undefined;
  const args = params.arguments === undefined ? {} : params.arguments;
  if (tool === undefined || !isPlainObject(args)) return undefined;
  const input = await tool.config.inputSchema['~standard'].validate(args);
  if (input.issues) return undefined;
  const result = await runTool(tool, input.value, ctx);
  if (result.isError !== true) {
    const output = await tool.config.outputSchema['~standard'].validate(result.structuredContent);
    if (output.issues) {
      ctx.ranWith = result;
      return undefined;
    }
  }
  return { result: wireResult(result), jsonrpc: '2.0', id: call.id };
}
