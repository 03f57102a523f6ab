import { z } from 'zod';
import { optionalString, parseEnv, port } from '@mmw/core';

/**
 * TRUST_PROXY: which proxies' X-Forwarded-For the dashboard believes, as fastify's trustProxy takes
 * it. Unset or "false": none (the peer's address is the client's). "true": any. A number: that many
 * hops. Otherwise a comma-separated list of addresses, CIDR ranges or proxy-addr's names (loopback,
 * linklocal, uniquelocal). Behind a proxy without it, every client shares the proxy's address and so
 * its sign-in and sign-up throttle.
 */
const proxyEntry = z.union([
  z.ipv4(),
  z.ipv6(),
  z.cidrv4(),
  z.cidrv6(),
  z.enum(['loopback', 'linklocal', 'uniquelocal']),
]);

const trustProxy = z
  .string()
  .trim()
  .optional()
  .transform((value, context): boolean | number | string[] => {
    if (value === undefined || value === '' || value === 'false') return false;
    if (value === 'true') return true;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    for (const entry of entries) {
      if (!proxyEntry.safeParse(entry).success) {
        context.addIssue({ code: 'custom', message: `'${entry}' is not true, false, a hop count, an address or a CIDR range` });
        return z.NEVER;
      }
    }
    return entries;
  });

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
  TRUST_PROXY: trustProxy,
  /** Mail goes out through this SMTP server (smtp:// or smtps://, with credentials); unset: into files under MMW_DATA_DIR/mail. */
  SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().default('MMW <no-reply@localhost>'),
};

export type DashboardConfig = ReturnType<typeof loadDashboardConfig>;

/** The core's settings and the dashboard's, parsed once at startup; bad ones stop the process with the variable's name. */
export function loadDashboardConfig(env: Record<string, string | undefined> = process.env) {
  return parseEnv(dashboardEnvShape, env);
}
