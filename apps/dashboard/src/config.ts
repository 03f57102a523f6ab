import { z } from 'zod';
import { optionalString, parseEnv, port } from '@mmw/core';

/** The dashboard's own settings, beside the core's: where it listens, how it is reached, proxies, mail. */
export const dashboardEnvShape = {
  HOST: z.string().default('127.0.0.1'),
  DASHBOARD_PORT: port.default(3000),
  /** The dashboard as users reach it (links in mail, the OAuth issuer); the listening address by default. */
  PUBLIC_URL: optionalString,
  /** The MCP endpoint as clients reach it, shown to users. */
  MCP_PUBLIC_URL: optionalString,
  /** Prometheus metrics at /metrics on this port; off when unset. */
  METRICS_PORT: port.optional(),
  /** Mail goes out through this SMTP server (smtp:// or smtps://, with credentials); unset: into files under MMW_DATA_DIR/mail. */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().default('MMW <no-reply@localhost>'),
};

export type DashboardConfig = ReturnType<typeof loadDashboardConfig>;

/** The core's settings and the dashboard's, parsed once at startup; bad ones stop the process with the variable's name. */
export function loadDashboardConfig(env: Record<string, string | undefined> = process.env) {
  return parseEnv(dashboardEnvShape, env);
}
