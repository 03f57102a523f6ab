import { join } from 'node:path';
import type { AgentConfig } from './config.ts';
import { readJsonFile, removeFile, writeJsonFile } from './json-file.ts';

export interface Credentials {
  url: string;
  key: string;
}

const credentialsPath = (config: AgentConfig) => join(config.home, 'credentials.json');

function isCredentials(value: unknown): value is Credentials {
  return (
    typeof value === 'object' &&
    value !== null &&
    'url' in value &&
    'key' in value &&
    typeof value.url === 'string' &&
    typeof value.key === 'string'
  );
}

/** The endpoint and key: the environment's first, what `mmw-agent login` saved otherwise. */
export async function loadCredentials(config: AgentConfig): Promise<Credentials | undefined> {
  const saved = await readJsonFile(credentialsPath(config));
  const stored = isCredentials(saved) ? saved : undefined;
  const url = config.url ?? stored?.url;
  const key = config.key ?? stored?.key;
  return url === undefined || key === undefined ? undefined : { url, key };
}

export async function saveCredentials(config: AgentConfig, credentials: Credentials): Promise<string> {
  const path = credentialsPath(config);
  await writeJsonFile(path, credentials);
  return path;
}

export async function removeCredentials(config: AgentConfig): Promise<void> {
  await removeFile(credentialsPath(config));
}

/** The origin's other routes (/sessions/upload, /healthz) beside the MCP endpoint. */
export function routeBeside(mcpUrl: string, route: string): string {
  const url = new URL(mcpUrl);
  url.pathname = url.pathname.replace(/\/mcp\/?$/, '') + route;
  url.search = '';
  return url.toString();
}
