import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface ToolOutcome {
  isError: boolean;
  text: string;
  structured: Record<string, unknown> | undefined;
}

export interface McpTestClient {
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The structured result of a call that must succeed. */
  ok<T = Record<string, unknown>>(name: string, args: Record<string, unknown>): Promise<T>;
  client: Client;
  close(): Promise<void>;
}

/** A real MCP client over Streamable HTTP, as an assistant connects. */
export async function connectMcp(
  url: string,
  key: string,
  headers: Record<string, string> = {},
): Promise<McpTestClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${key}`, ...headers } },
  });
  const client = new Client({ name: 'mmw-tests', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown>): Promise<ToolOutcome> => {
    const result = await client.callTool({ name, arguments: args });
    const content = Array.isArray(result.content) ? result.content : [];
    const first = content[0] as { type?: string; text?: string } | undefined;
    return {
      isError: result.isError === true,
      text: first?.type === 'text' ? (first.text ?? '') : '',
      structured: result.structuredContent as Record<string, unknown> | undefined,
    };
  };
  return {
    client,
    call,
    ok: async <T>(name: string, args: Record<string, unknown>) => {
      const outcome = await call(name, args);
      if (outcome.isError || outcome.structured === undefined) {
        throw new Error(`${name} failed: ${outcome.text}`);
      }
      return outcome.structured as T;
    },
    close: () => client.close(),
  };
}
