import { z } from 'zod';

const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const positiveInt = z.coerce.number().int().positive();

const envSchema = z.object({
  DATABASE_URL: optionalString,
  DATABASE_POOL_SIZE: positiveInt.default(10),
  MMW_DATA_DIR: z.string().default('.mmw'),
  HOST: z.string().default('127.0.0.1'),
  MCP_PORT: port(8787),
  DASHBOARD_PORT: port(3000),
  PUBLIC_URL: optionalString,
  MCP_PUBLIC_URL: optionalString,
  MMW_KEY_CALLS_PER_MINUTE: positiveInt.optional(),
  MMW_PROJECT_CALLS_PER_MINUTE: positiveInt.optional(),
  MMW_RECORD_LIMIT: positiveInt.optional(),
  MMW_GRACE_DAYS: z.coerce.number().int().min(0).optional(),
  MMW_MODEL_URL: optionalString,
  MMW_MODEL_API_KEY: optionalString,
  MMW_MODEL: z.string().default('gpt-4o-mini'),
  MMW_MODEL_TIMEOUT_MS: positiveInt.default(8000),
  MMW_WORKER_CONCURRENCY: positiveInt.default(2),
  MMW_WORKER_BATCH_SIZE: positiveInt.default(10),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalString,
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_PRICE_TEAM: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = z.infer<typeof envSchema>;

/** Parses the environment once, at startup. Bad config stops the process with the variable's name. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}
