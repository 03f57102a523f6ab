import { z } from 'zod';

/**
 * TRUST_PROXY: which proxies' X-Forwarded-For the servers believe, as fastify's trustProxy takes it.
 * Unset or "false": none (the peer's address is the client's). "true": any. A number: that many
 * hops. Otherwise a comma-separated list of addresses, CIDR ranges or proxy-addr's names (loopback,
 * linklocal, uniquelocal). Behind a proxy without it, every client shares the proxy's address and so
 * its sign-in, sign-up and failed-authentication limits.
 */
const proxyEntry = z.union([
  z.ipv4(),
  z.ipv6(),
  z.cidrv4(),
  z.cidrv6(),
  z.enum(['loopback', 'linklocal', 'uniquelocal']),
]);

export const trustProxySetting = z
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

/** fastify's trustProxy option from the setting: a hop count becomes its function form. */
export function fastifyTrustProxy(setting: boolean | number | string[] | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') return (_address: string, hop: number) => hop < setting;
  return setting ?? false;
}

/** MMW_SECRET_KEY: 32-byte keys in base64, comma-separated, the first one sealing; never repeated in an error. */
const secretKeys = z
  .string()
  .optional()
  .transform((value, context): Buffer[] => {
    const parts = (value ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
    const keys = parts.map((part) => Buffer.from(part, 'base64'));
    if (keys.some((key, i) => key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(parts[i] ?? ''))) {
      context.addIssue({ code: 'custom', message: 'each key must be 32 random bytes in base64 (openssl rand -base64 32)' });
      return z.NEVER;
    }
    return keys;
  });

/** Building blocks of the settings, for the apps' own (ports, URLs, timeouts of their servers). */
export const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();
export const positiveInt = z.coerce.number().int().positive();
const secretList = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  );

/** A PostgreSQL URL; its text is never repeated in an error, since it holds a password. */
const databaseUrl = optionalString.refine(
  (v) => v === undefined || (URL.canParse(v) && /^postgres(ql)?:$/.test(new URL(v).protocol)),
  'is not a PostgreSQL URL (postgres://user:password@host:5432/database)',
);

export const port = z.coerce.number().int().min(0).max(65535);

/**
 * The domain's settings: database, limits, guard, model, worker, billing, OAuth tokens, shutdown and
 * logging. Ports, URLs and the HTTP servers' bounds are the apps' own (each app's config.ts).
 */
const coreEnvShape = {
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_SIZE: positiveInt.default(10),
  /** Bounds on every wait of a database connection (packages/db ConnectionLimits). */
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt.default(15_000),
  DATABASE_LOCK_TIMEOUT_MS: positiveInt.default(5_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: positiveInt.default(30_000),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt.default(2_000),
  /** Callers waiting for a pooled connection past which a request is refused (503) at once. */
  DATABASE_MAX_WAITING: positiveInt.default(200),
  MMW_DATA_DIR: z.string().default('.mmw'),
  TRUST_PROXY: trustProxySetting,
  /** Seals two-factor secrets at rest (docs/security.md); unset: they are stored as they are. */
  MMW_SECRET_KEY: secretKeys,
  /** Failed MCP authentications per client address a minute, past which it gets 429 (decision 0038). */
  MMW_AUTH_FAILURES_PER_MINUTE: positiveInt.default(30),
  MMW_KEY_CALLS_PER_MINUTE: positiveInt.optional(),
  MMW_PROJECT_CALLS_PER_MINUTE: positiveInt.optional(),
  MMW_RECORD_LIMIT: positiveInt.optional(),
  MMW_SESSION_MESSAGE_LIMIT: positiveInt.optional(),
  /** Tool calls a month every plan includes, overriding the plans' own allowances. */
  MMW_CALLS_PER_MONTH: positiveInt.optional(),
  MMW_GRACE_DAYS: z.coerce.number().int().min(0).optional(),
  MMW_MODEL_URL: optionalString,
  MMW_MODEL_API_KEY: optionalString,
  MMW_MODEL: z.string().default('gpt-4o-mini'),
  MMW_MODEL_TIMEOUT_MS: positiveInt.default(8000),
  MMW_WORKER_CONCURRENCY: positiveInt.default(2),
  MMW_WORKER_BATCH_SIZE: positiveInt.default(10),
  /** Worker threads of the Memory Guard, the records that may wait for one, and its time budgets. */
  MMW_GUARD_THREADS: positiveInt.default(1),
  MMW_GUARD_QUEUE: positiveInt.default(64),
  MMW_GUARD_BUDGET_MS: positiveInt.default(2000),
  MMW_GUARD_WAIT_MS: positiveInt.default(10_000),
  /** Billing is on when this is set; without it every account is active with no end. */
  STRIPE_SECRET_KEY: optionalString,
  /** One secret, or several separated by commas while a secret is rolled: any of them may sign. */
  STRIPE_WEBHOOK_SECRET: secretList,
  /** Where the Stripe API is (a local stub in tests); Stripe's own host by default. */
  STRIPE_API_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  STRIPE_PRICE_PRO: optionalString,
  STRIPE_PRICE_TEAM: optionalString,
  /** How long the plan picker's prices, read from Stripe, are kept before they are read again. */
  STRIPE_PRICE_CACHE_SECONDS: positiveInt.default(600),
  /** How far a webhook's signed timestamp may be from the clock, in the past or the future. */
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: positiveInt.default(300),
  /** On SIGTERM, how long readiness says "draining" before the listeners close (the load balancer's delay). */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** The bound on a shutdown: requests and jobs in flight that take longer are cut and the exit code is 1. */
  SHUTDOWN_TIMEOUT_MS: positiveInt.default(25_000),
  /** Apply pending migrations at start (under an advisory lock); off where a migration job does it. */
  MMW_MIGRATE_AT_START: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** OAuth for connectors: how long an access token lives, and a refresh token. */
  MMW_OAUTH_ACCESS_TOKEN_SECONDS: positiveInt.default(3600),
  MMW_OAUTH_REFRESH_TOKEN_DAYS: positiveInt.default(30),
  /** How long fetching a client id metadata document may take, all of it. */
  MMW_OAUTH_CLIENT_DOCUMENT_TIMEOUT_MS: positiveInt.default(3000),
  /**
   * Dynamic client registrations one address may make in 15 minutes. Connector platforms register
   * from their own servers, so many people may share one address: raise it when they are refused.
   */
  MMW_OAUTH_REGISTRATIONS_PER_ADDRESS: positiveInt.default(30),
  /** Development only: client id metadata documents over http and from loopback addresses. */
  MMW_OAUTH_DEV_LOOPBACK_CLIENTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

/** The core's settings, with a rule across variables: billing on needs the webhook's signing secret. */
const coreEnvSchema = z.object(coreEnvShape).superRefine((env, context) => {
  if (env.STRIPE_SECRET_KEY !== undefined && env.STRIPE_WEBHOOK_SECRET.length === 0) {
    context.addIssue({
      code: 'custom',
      path: ['STRIPE_WEBHOOK_SECRET'],
      message:
        'is required when STRIPE_SECRET_KEY is set (the signing secret of the webhook endpoint, whsec_…)',
    });
  }
});

export type Config = z.output<typeof coreEnvSchema>;

/**
 * Parses the environment once, at startup: the core's settings and an app's own (`appShape`: its
 * ports, URLs, servers' bounds). Bad config stops the process with the variables' names.
 */
export function parseEnv<AppShape extends z.ZodRawShape>(
  appShape: AppShape,
  env: Record<string, string | undefined> = process.env,
): Config & z.output<z.ZodObject<AppShape>> {
  const core = coreEnvSchema.safeParse(env);
  const app = z.object(appShape).safeParse(env);
  if (!core.success || !app.success) {
    const issues = [...(core.error?.issues ?? []), ...(app.error?.issues ?? [])];
    const problems = issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return { ...app.data, ...core.data };
}

/** The core's settings alone (the migration step, tests). */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return parseEnv({}, env);
}
