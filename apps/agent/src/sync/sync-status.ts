import { join } from 'node:path';
import type { AgentConfig } from '../config.ts';
import { readJsonFile, writeJsonFile } from '../json-file.ts';

/** What the last sync pass found and did: mmw_sync_status reads it. */
export interface SyncState {
  files_found: number;
  files_uploaded: number;
  messages_uploaded: number;
  pending: number;
  last_sync_at: string | null;
  last_error: string | null;
}

export const emptySyncState: SyncState = {
  files_found: 0,
  files_uploaded: 0,
  messages_uploaded: 0,
  pending: 0,
  last_sync_at: null,
  last_error: null,
};

const statusPath = (config: AgentConfig) => join(config.home, 'sync-status.json');

export async function loadSyncState(config: AgentConfig): Promise<SyncState> {
  const stored = await readJsonFile(statusPath(config));
  return typeof stored === 'object' && stored !== null
    ? { ...emptySyncState, ...(stored as Partial<SyncState>) }
    : emptySyncState;
}

export async function saveSyncState(config: AgentConfig, state: SyncState): Promise<void> {
  await writeJsonFile(statusPath(config), state);
}
