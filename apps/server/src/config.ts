import { parseEnv } from '@mmw/core';
import { dashboardEnvShape } from '@mmw/dashboard';
import { mcpEnvShape } from '@mmw/mcp';

/** The single process serves both apps: their settings together (the same names mean the same thing). */
export function loadServerConfig(env: Record<string, string | undefined> = process.env) {
  return parseEnv({ ...mcpEnvShape, ...dashboardEnvShape }, env);
}

/** The worker listens only for its metrics. */
export function loadWorkerConfig(env: Record<string, string | undefined> = process.env) {
  return parseEnv({ HOST: mcpEnvShape.HOST, METRICS_PORT: mcpEnvShape.METRICS_PORT }, env);
}
