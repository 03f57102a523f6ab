import { z } from 'zod';
import { optionalString, parseEnv, port, positiveInt } from '@mmw/core';

/** The MCP ingress's own settings, beside the core's: where it listens, how it is reached, its bounds. */
export const mcpEnvShape = {
  HOST: z.string().default('127.0.0.1'),
  MCP_PORT: port.default(8787),
  /** The dashboard as users reach it; its origin is the OAuth issuer the ingress names. */
  PUBLIC_URL: optionalString,
  /** The MCP endpoint as clients reach it; the request's own origin + /mcp by default. */
  MCP_PUBLIC_URL: optionalString,
  /** HTTP servers: whole request, idle socket, and keep-alive bounds. */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  HTTP_CONNECTION_TIMEOUT_MS: positiveInt.default(60_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5_000),
  /** Prometheus metrics at /metrics on this port; off when unset. */
  METRICS_PORT: port.optional(),
};

export type McpConfig = ReturnType<typeof loadMcpConfig>;

/** Parsed once at startup; bad settings stop the process with the variable's name. */
export function loadMcpConfig(env: Record<string, string | undefined> = process.env) {
  return parseEnv(mcpEnvShape, env);
}
