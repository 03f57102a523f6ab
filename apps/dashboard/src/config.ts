import { z } from 'zod';
import { trustProxySetting } from '@mmw/core';

const optional = z
  .string()
  .trim()
  .optional()
  .transform((value) => (value === '' ? undefined : value));

const dashboardEnvSchema = z.object({
  /** TRUST_PROXY: whose X-Forwarded-For names the client (core's config says how it is read). */
  TRUST_PROXY: trustProxySetting,
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
