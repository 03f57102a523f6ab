import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  createInputGuard,
  fastifyTrustProxy,
  guardPoolFor,
  loadConfig,
  MAX_UPLOAD_BYTES,
  oauthSettings,
  secretBox,
  type Billing,
  type Config,
  type GuardPool,
  type InputGuard,
} from '@mmw/core';
import type { QueryExpander } from '@mmw/core';
import { isDatabaseReady, type Db } from '@mmw/db';
import { contextFactory, type DashboardDeps, type InvitationNotifier } from './trpc/context.ts';
import { appRouter, type AppRouter } from './router.ts';
import { stripeWebhookRoute } from './stripe-webhook.ts';
import { oauthRoutes } from './oauth-routes.ts';
import { webBuildDir } from './web-build.ts';
import { fileTransport, type MailTransport } from './mail-transport.ts';
import { serializeRequest } from './request-log.ts';
import { invitationMailer } from './invitation-mail.ts';

export interface DashboardAppOptions {
  db: Db;
  logLevel?: string;
  /** Where log lines go; standard output by default. */
  logStream?: NodeJS.WritableStream;
  /** TRUST_PROXY, as config.ts parses it: whose X-Forwarded-For names the client. */
  trustProxy?: boolean | number | string[];
  /** Where mail goes: SMTP in production; files under mailDir by default. */
  mail?: MailTransport;
  mailDir?: string;
  /** Sign-ups per client address per window (core's default when not given). */
  signUpsPerAddress?: number;
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
  /** Settings read from the environment (OAuth token lives and client document policy); defaults otherwise. */
  config?: Config;
  /** The runtime's Memory Guard (service.guardInput); a pool of its own, closed with the app, when absent. */
  guardInput?: InputGuard;
}

export async function buildDashboardApp(options: DashboardAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      serializers: { req: serializeRequest },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // A hop count becomes fastify's function form: trust that many proxies nearest to the server.
    trustProxy: fastifyTrustProxy(options.trustProxy),
  });
  const mail = options.mail ?? fileTransport(options.mailDir ?? join(tmpdir(), 'mmw-mail'), app.log);
  let ownGuard: GuardPool | undefined;
  const guardInput: InputGuard =
    options.guardInput ??
    ((valid) => {
      // The defaults of the Guard's settings; made on the first import only.
      ownGuard ??= guardPoolFor(loadConfig({}));
      return createInputGuard(ownGuard)(valid);
    });
  app.addHook('onClose', async () => {
    await ownGuard?.close();
  });
  const publicOrigin = options.publicUrl === undefined ? undefined : new URL(options.publicUrl).origin;
  const mcpUrl = options.mcpUrl ?? 'http://127.0.0.1:8787/mcp';
  const config = options.config ?? loadConfig({});
  const deps: DashboardDeps = {
    db: options.db,
    cookies: { secure: publicOrigin?.startsWith('https:') ?? false },
    publicOrigin,
    mcpUrl,
    notifier: options.notifier ?? invitationMailer(mail),
    mail,
    signUpsPerAddress: options.signUpsPerAddress,
    expander: options.expander,
    billing: options.billing,
    oauth: oauthSettings(config, mcpUrl),
    guardInput,
    secrets: secretBox(config.MMW_SECRET_KEY),
  };

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        fontSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // HSTS only where the dashboard is reached over https: over http it would say nothing true.
    strictTransportSecurity: deps.cookies.secure ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  await app.register(fastifyCookie);
  // An export uploaded for import travels as a tRPC input: JSON escaping can double its size.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/trpc')) route.bodyLimit = 2 * MAX_UPLOAD_BYTES + 64 * 1024;
  });
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
  await app.register(
    oauthRoutes({ db: options.db, oauth: deps.oauth, issuer: (request) => publicOrigin ?? `${request.protocol}://${request.host}` }),
  );

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
    const page =
      request.method === 'GET' && !request.url.startsWith('/trpc') && !request.url.startsWith('/assets/') && !request.url.startsWith('/.well-known/');
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
