import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { AgentConfig } from './config.ts';
import { loadCredentials } from './credentials.ts';
import { readJsonFile, writeJsonFile } from './json-file.ts';
import { RemoteServer, ServerRefusal } from './remote-server.ts';
import { TransientError } from './retry.ts';
import { startBackgroundSync } from './background-sync.ts';
import { syncStatus, syncStatusTool } from './sync-status-tool.ts';
import { AGENT_VERSION } from './version.ts';

/** Listing the tools waits less for the server than a call does: a client is starting up. */
const LIST_RETRY_MS = 5_000;

const toolError = (text: string): CallToolResult => ({ isError: true, content: [{ type: 'text', text }] });

const notLoggedIn = toolError(
  'mmw-agent has no server to call: set MMW_URL and MMW_KEY, or run `mmw-agent login` in a terminal.',
);

/**
 * The stdio MCP server: the server's tools (as the server lists them, so a new tool needs no new
 * agent) plus mmw_sync_status; every call is forwarded with the key. A write carries an
 * X-Idempotency-Key made for the call, the same on each retry, so it is stored once. A server that
 * cannot be reached gets a tool error after the retries, never an exit.
 */
export async function serveStdio(config: AgentConfig): Promise<void> {
  const toolsCache = join(config.home, 'tools.json');
  let known: Tool[] = ((await readJsonFile(toolsCache)) as Tool[] | undefined) ?? [];

  const server = new Server({ name: 'mmw-agent', version: AGENT_VERSION }, { capabilities: { tools: {} } });

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const credentials = await loadCredentials(config);
    if (credentials) {
      try {
        known = await new RemoteServer(credentials, Math.min(LIST_RETRY_MS, config.retryMs)).listTools();
        await writeJsonFile(toolsCache, known);
      } catch (error) {
        process.stderr.write(
          `mmw-agent: could not list the server's tools (${describe(error)}); using the last list\n`,
        );
      }
    }
    return { tools: [...known.filter((tool) => tool.name !== syncStatusTool.name), syncStatusTool] };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    if (name === syncStatusTool.name) {
      const status = await syncStatus(config);
      return { structuredContent: status, content: [{ type: 'text', text: JSON.stringify(status) }] };
    }
    const credentials = await loadCredentials(config);
    if (!credentials) return notLoggedIn;
    const readOnly = known.find((tool) => tool.name === name)?.annotations?.readOnlyHint === true;
    const idempotencyKey = readOnly ? undefined : randomUUID();
    try {
      return await new RemoteServer(credentials, config.retryMs).callTool(
        name,
        request.params.arguments ?? {},
        idempotencyKey,
      );
    } catch (error) {
      if (error instanceof TransientError) {
        return toolError(
          `MMW server unreachable at ${new URL(credentials.url).origin} (${error.message}) after ${Math.round(config.retryMs / 1000)} s of retries: the call was not completed. Try again later.`,
        );
      }
      if (error instanceof ServerRefusal) return toolError(`MMW server refused the call: ${error.message}`);
      return toolError(`mmw-agent could not complete the call: ${describe(error)}`);
    }
  });

  const background = startBackgroundSync(config);
  const transport = new StdioServerTransport();
  transport.onclose = () => background.stop();
  await server.connect(transport);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}
