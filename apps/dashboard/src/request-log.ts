import type { FastifyRequest } from 'fastify';

// Paths whose last segment is a secret token: the invitation link and the email verification link.
const TOKEN_PATHS = ['/invite/', '/verify-email/', '/reset-password/'];

/**
 * The URL as the request log may show it: no query string (tRPC GET inputs carry search text and
 * fact keys) and no token of a link. Plain string work, bounded by the URL's length.
 */
export function loggableUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  for (const prefix of TOKEN_PATHS) {
    const at = path.indexOf(prefix);
    if (at !== -1) return `${path.slice(0, at + prefix.length)}[redacted]`;
  }
  return path;
}

/** Fastify's request serializer, with the URL made loggable. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}
