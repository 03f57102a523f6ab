import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError, type MemoryService } from '@mmw/core';
import { setLimitHeaders } from './limit-headers.ts';
import { describeError } from './safe-log.ts';

/** Largest upload batch body: the agent cuts its batches at a quarter of it. */
export const UPLOAD_BODY_LIMIT = 4 * 1024 * 1024;

type PreHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/**
 * POST /sessions/upload: mmw-agent's batches of session history, with the same project keys as
 * /mcp (not an MCP tool, so assistants never see it). Each batch counts as one call of the key.
 */
export function registerSessionUpload(
  app: FastifyInstance,
  service: MemoryService,
  keyAuth: PreHandler,
): void {
  app.post('/sessions/upload', {
    bodyLimit: UPLOAD_BODY_LIMIT,
    preHandler: keyAuth,
    handler: async (request, reply) => {
      const authenticated = request.session;
      if (!authenticated) return reply.status(401).send({ error: 'Unauthorized' });
      const session = {
        ...authenticated,
        onLimits: (state: Parameters<typeof setLimitHeaders>[1]) => setLimitHeaders(reply.raw, state),
      };
      try {
        return await reply.send(await service.uploadSessions(session, request.body));
      } catch (error) {
        if (isAppError(error)) {
          if (error.retryAfterSeconds !== undefined)
            reply.header('retry-after', String(error.retryAfterSeconds));
          return reply.status(error.httpStatus).send({ error: error.message });
        }
        request.log.error({ err: describeError(error) }, 'session upload failed');
        return reply.status(500).send({ error: 'internal error: the batch was not stored' });
      }
    },
  });
}
