import type { Shutdown } from './graceful-shutdown.ts';

interface Reply {
  header(name: string, value: string): unknown;
  code(status: number): { send(body: unknown): unknown };
}

/**
 * An onRequest hook for a server's listener. Once the process drains, /readyz answers 503 whatever
 * the database says, so that the load balancer takes the replica out before its listener closes;
 * and every answer closes its connection, so that a client on a kept-alive connection comes back
 * on a new one (to another replica) instead of holding the closing listener open.
 */
export function readinessGate(shutdown: Pick<Shutdown, 'draining'>) {
  return async (request: { url: string }, reply: Reply): Promise<unknown> => {
    if (!shutdown.draining) return undefined;
    reply.header('connection', 'close');
    if (request.url === '/readyz') return reply.code(503).send({ status: 'draining' });
    return undefined;
  };
}
