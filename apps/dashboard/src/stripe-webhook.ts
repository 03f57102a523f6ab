import { isAppError, type Billing } from '@mmw/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';

const receiptSchema = z.object({
  received: z.literal(true),
  outcome: z.enum(['stored', 'duplicate', 'ignored']),
  eventId: z.string(),
});
const refusalSchema = z.object({ error: z.string() });

/** Stripe signs the exact bytes it sent; a parsed and re-serialized body would not verify. */
const RAW_BODY_LIMIT = 512 * 1024;

/**
 * POST /webhooks/stripe: verified against the raw body, stored once, answered at once; a job
 * processes it. A bad or stale signature gets 400 and changes nothing. Nothing of the request (body,
 * signature) is logged.
 */
export function stripeWebhookRoute(billing: Billing | undefined): FastifyPluginAsync {
  return async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RAW_BODY_LIMIT }, (_request, body, done) => {
      done(null, body);
    });
    scope.post('/webhooks/stripe', async (request, reply) => {
      if (billing?.enabled !== true) {
        return reply.status(404).send(refusalSchema.parse({ error: 'billing is off on this server' }));
      }
      const signature = request.headers['stripe-signature'];
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      try {
        const receipt = await billing.receiveWebhook(body, typeof signature === 'string' ? signature : undefined);
        return reply.status(200).send(receiptSchema.parse({ received: true, ...receipt }));
      } catch (error) {
        if (isAppError(error) && error.httpStatus < 500) {
          return reply.status(error.httpStatus).send(refusalSchema.parse({ error: error.message }));
        }
        request.log.error({ error: error instanceof Error ? error.name : 'unknown' }, 'Stripe webhook could not be stored');
        // Not stored: Stripe delivers it again.
        return reply.status(503).send(refusalSchema.parse({ error: 'try again' }));
      }
    });
  };
}
