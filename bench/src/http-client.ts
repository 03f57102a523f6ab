import { Agent, request } from 'node:http';

/** Keep-alive connections, as an assistant's MCP client holds them. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface HttpAnswer {
  status: number;
  body: string;
}

export function post(url: string, body: string, headers: Record<string, string>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface ToolAnswer {
  ok: boolean;
  text: string;
  structured: Record<string, unknown> | undefined;
}

interface JsonRpcAnswer {
  result?: { isError?: boolean; content?: Array<{ text?: string }>; structuredContent?: Record<string, unknown> };
  error?: { message?: string };
}

/** One MCP tools/call as a plain JSON-RPC POST to the stateless endpoint. */
export async function callTool(
  mcpUrl: string,
  key: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<ToolAnswer> {
  const answer = await post(
    mcpUrl,
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
    { accept: 'application/json, text/event-stream', authorization: `Bearer ${key}`, ...headers },
  );
  let parsed: JsonRpcAnswer;
  try {
    parsed = JSON.parse(answer.body) as JsonRpcAnswer;
  } catch {
    return { ok: false, text: `HTTP ${answer.status}: ${answer.body.slice(0, 200)}`, structured: undefined };
  }
  const isError = answer.status !== 200 || parsed.result?.isError === true || parsed.error !== undefined;
  return {
    ok: !isError,
    text: parsed.result?.content?.[0]?.text ?? parsed.error?.message ?? '',
    structured: parsed.result?.structuredContent,
  };
}
