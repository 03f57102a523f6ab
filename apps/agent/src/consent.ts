import { join } from 'node:path';
import type { AgentConfig } from './config.ts';
import { readJsonFile, writeJsonFile } from './json-file.ts';

const consentPath = (config: AgentConfig) => join(config.home, 'consent.json');

/** Whether the user said yes to uploading session history, and has not withdrawn it. Read anew each time. */
export async function hasConsent(config: AgentConfig): Promise<boolean> {
  const state = await readJsonFile(consentPath(config));
  return typeof state === 'object' && state !== null && 'consented' in state && state.consented === true;
}

export async function recordConsent(config: AgentConfig, consented: boolean): Promise<void> {
  await writeJsonFile(consentPath(config), { consented, at: new Date().toISOString() });
}
