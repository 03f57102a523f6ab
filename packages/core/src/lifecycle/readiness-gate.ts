import type { Shutdown } from './graceful-shutdown.ts';

interface Reply {
  code(status: number): { send(body: unknown): unknown };
}

/**
 * An onRequest hook for a server's listener: once the process drains, /readyz answers 503 whatever
 * the database says, so that the load balancer takes the replica out before its listener closes.
 */
export function readinessGate(shutdown: Pick<Shutdown, 'draining'>) {
  return async (request: { url: string }, reply: Reply): Promise<unknown> => {
    if (shutdown.draining && request.url === '/readyz') return reply.code(503).send({ status: 'draining' });
    return undefined;
  };
}
