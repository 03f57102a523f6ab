import {
  authorizationServerMetadata,
  isOAuthError,
  OAUTH_PATHS,
  registerClient,
  revocationEndpoint,
  tokenEndpoint,
  type OAuthSettings,
  type TokenRequest,
} from '@mmw/core';
import type { Db } from '@mmw/db';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Client credentials of an Authorization: Basic header (RFC 6749 section 2.3.1: form-encoded parts). */
function basicCredentials(request: FastifyRequest): TokenRequest['basic'] {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !header.startsWith('Basic ')) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}

function formFields(body: unknown): Record<string, string | undefined> {
  if (typeof body !== 'object' || body === null) return {};
  const fields: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

/**
 * The authorization server's HTTP endpoints (RFC 8414 metadata, RFC 7591 registration, the token
 * endpoint, RFC 7009 revocation). Each turns the request into one call of core and its answer or
 * OAuth error back; the authorization endpoint itself is the web UI's consent page.
 */
export function oauthRoutes(deps: { db: Db; oauth: OAuthSettings; issuer: (request: FastifyRequest) => string }) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
    });
    // Connectors call these from their servers, and some from a browser page of their own.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/oauth/') || request.url.startsWith('/.well-known/')) {
        void reply.header('access-control-allow-origin', '*');
        void reply.header('access-control-allow-headers', 'authorization, content-type, mcp-protocol-version');
      }
    });
    for (const path of [OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.revoke, '/.well-known/oauth-authorization-server']) {
      app.options(path, async (_request, reply) => reply.header('access-control-allow-methods', 'GET, POST').status(204).send());
    }
    const failed = (reply: FastifyReply, error: unknown) => {
      if (!isOAuthError(error)) throw error;
      if (error.status === 401) void reply.header('www-authenticate', 'Basic realm="mmw"');
      if (error.retryAfterSeconds !== undefined) void reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).header('cache-control', 'no-store').send(error.body);
    };

    app.get('/.well-known/oauth-authorization-server', async (request) => authorizationServerMetadata(deps.issuer(request)));

    app.post(OAUTH_PATHS.register, { bodyLimit: 16 * 1024 }, async (request, reply) => {
      try {
        return await reply.status(201).header('cache-control', 'no-store').send(
          await registerClient(deps.db, request.body, { address: request.ip, perAddress: deps.oauth.registrationsPerAddress }),
        );
      } catch (error) {
        return failed(reply, error);
      }
    });

    app.post(OAUTH_PATHS.token, async (request, reply) => {
      try {
        const tokens = await tokenEndpoint(deps.db, deps.oauth, { params: formFields(request.body), basic: basicCredentials(request) });
        return await reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
      } catch (error) {
        return failed(reply, error);
      }
    });

    app.post(OAUTH_PATHS.revoke, async (request, reply) => {
      try {
        await revocationEndpoint(deps.db, deps.oauth, { params: formFields(request.body), basic: basicCredentials(request) });
        return await reply.header('cache-control', 'no-store').send({});
      } catch (error) {
        return failed(reply, error);
      }
    });
  };
}
