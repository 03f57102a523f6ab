import { z } from 'zod';

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

const optional = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const dashboardEnvSchema = z.object({
  TRUST_PROXY: trustProxy,
  /** Mail goes out through this SMTP server (smtp:// or smtps://, with credentials); unset: into files under MMW_DATA_DIR/mail. */
  SMTP_URL: optional.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
  MAIL_FROM: z.string().trim().default('MMW <no-reply@localhost>'),
});

export type DashboardConfig = z.infer<typeof dashboardEnvSchema>;

/** The dashboard's own settings, parsed once at startup; bad ones stop the process with the variable's name. */
export function loadDashboardConfig(env: Record<string, string | undefined> = process.env): DashboardConfig {
  const parsed = dashboardEnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
