import { optionalString, parseEnv } from '@mmw/core';

/** The operator CLI's settings: the core's, and the dashboard's public address that an export names. */
export function loadCliConfig(env: Record<string, string | undefined> = process.env) {
  return parseEnv({ PUBLIC_URL: optionalString }, env);
}

export type CliConfig = ReturnType<typeof loadCliConfig>;
