/** One tools/call over plain HTTP, as a client that keeps no session would send it. */
export async function rawToolCall(
  url: string,
  key: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; isError: boolean; text: string; structured: Record<string, unknown> | undefined }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const body = (await response.json()) as {
    result?: { isError?: boolean; content?: Array<{ text?: string }>; structuredContent?: Record<string, unknown> };
    error?: { message?: string };
  };
  return {
    status: response.status,
    headers: response.headers,
    isError: body.result?.isError === true || body.error !== undefined,
    text: body.result?.content?.[0]?.text ?? body.error?.message ?? '',
    structured: body.result?.structuredContent,
  };
}
