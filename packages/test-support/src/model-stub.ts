import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    response_format?: unknown;
    messages?: Array<{ role: string; content: string }>;
  };
}

/** What the stub does with one request: answer with a status and body, or never answer. */
export type StubReply = { status: number; body: string } | 'hang';

export interface ModelStub {
  url: string;
  requests: StubRequest[];
  reply: (handler: (request: StubRequest) => StubReply) => void;
  close: () => Promise<void>;
}

/** A chat completions answer whose message content is `content`. */
export function completion(content: string | null, extra: Record<string, unknown> = {}): StubReply {
  return {
    status: 200,
    body: JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' }],
    }),
  };
}

/** A local stand-in for an OpenAI-compatible API on 127.0.0.1 and a random port. */
export async function startModelStub(): Promise<ModelStub> {
  const requests: StubRequest[] = [];
  let handler: (request: StubRequest) => StubReply = () => completion('{"relations":[],"marks":[]}');
  const hanging: ServerResponse[] = [];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: StubRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as StubRequest['body'],
      };
      requests.push(request);
      const reply = handler(request);
      if (reply === 'hang') {
        hanging.push(res);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (next) => {
      handler = next;
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
