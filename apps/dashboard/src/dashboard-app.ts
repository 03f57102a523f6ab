import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Billing } from '@mmw/core';
import type { QueryExpander } from '@mmw/core';
import { isDatabaseReady, type Db } from '@mmw/db';
import { contextFactory, type DashboardDeps, type InvitationNotifier } from './trpc/context.ts';
import { appRouter, type AppRouter } from './router.ts';
import { stripeWebhookRoute } from './stripe-webhook.ts';
import { webBuildDir } from './web-build.ts';

export interface DashboardAppOptions {
  db: Db;
  logLevel?: string;
  /** PUBLIC_URL: where people reach the dashboard. Cookies are Secure when it is https. */
  publicUrl?: string | undefined;
  /** The MCP endpoint shown in the "claude mcp add" line. */
  mcpUrl?: string;
  /** The built web UI; the package's dist/web by default. */
  webRoot?: string;
  notifier?: InvitationNotifier;
  /** The runtime's query expander, as MCP search uses it; the built-in one by default. */
  expander?: QueryExpander;
  /** The runtime's billing: the Billing pages and Stripe's webhooks. */
  billing?: Billing;
}

export async function buildDashboardApp(options: DashboardAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: { level: options.logLevel ?? 'info' }, trustProxy: false });
  const publicOrigin = options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin;
  const deps: DashboardDeps = {
    db: options.db,
    cookies: { secure: publicOrigin?.startsWith('https:') ?? false },
    publicOrigin,
    mcpUrl: options.mcpUrl ?? 'http://127.0.0.1:8787/mcp',
    notifier: options.notifier ?? {
      // Sending email is out of scope: the log line stands in for it.
      invitationCreated: ({ email, accountName, link }) =>
        app.log.info({ email, accountName, link }, 'invitation created: send this link to the invitee'),
    },
    expander: options.expander,
    billing: options.billing,
  };

  await app.register(fastifyCookie);
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: appRouter,
      createContext: contextFactory(deps),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') app.log.error({ path, cause: error.cause?.name }, 'tRPC procedure failed');
      },
    } satisfies FastifyTRPCPluginOptions<AppRouter>['trpcOptions'],
  });

  await app.register(stripeWebhookRoute(options.billing));

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (await isDatabaseReady(options.db)) return { status: 'ready' };
    return reply.status(503).send({ status: 'unavailable' });
  });

  const webRoot = options.webRoot ?? webBuildDir;
  const index = join(webRoot, 'index.html');
  if (existsSync(index)) {
    await app.register(fastifyStatic, { root: webRoot, prefix: '/', wildcard: false, index: false });
    app.get('/', async (_request, reply) => reply.header('cache-control', 'no-cache').sendFile('index.html'));
  }
  // The web UI routes in the browser: any other page address gets index.html.
  app.setNotFoundHandler(async (request, reply) => {
    const page = request.method === 'GET' && !request.url.startsWith('/trpc') && !request.url.startsWith('/assets/');
    if (!page) return reply.status(404).send({ error: 'not found' });
    if (!existsSync(index)) {
      return reply
        .type('text/html')
        .send('<!doctype html><title>MMW</title><h1>MMW</h1><p>The web UI is not built: run <code>pnpm start</code>.</p>');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', webRoot);
  });
  return app;
}
