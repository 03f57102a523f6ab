import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { AgentConfig } from './config.ts';
import { hasConsent } from './consent.ts';
import { loadCredentials } from './credentials.ts';
import { serverReachable } from './server-target.ts';
import { loadSyncState } from './sync/sync-status.ts';

const count = { type: 'integer', minimum: 0 } as const;
const nullableText = { type: ['string', 'null'] } as const;

export const syncStatusTool: Tool = {
  name: 'mmw_sync_status',
  title: 'Session upload status',
  description:
    "The state of this computer's session history upload to MMW: whether the user consented (mmw-agent consent), whether the server answers, how many Claude Code and Codex session files were found and uploaded, and the last problem met. Call it when the user asks whether their sessions are uploaded or searchable.",
  inputSchema: { type: 'object', properties: {} },
  outputSchema: {
    type: 'object',
    properties: {
      consented: { type: 'boolean' },
      server_reachable: { type: 'boolean' },
      files_found: count,
      files_uploaded: count,
      messages_uploaded: count,
      pending: count,
      last_sync_at: nullableText,
      last_error: nullableText,
    },
    required: [
      'consented',
      'server_reachable',
      'files_found',
      'files_uploaded',
      'messages_uploaded',
      'pending',
      'last_sync_at',
      'last_error',
    ],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

export async function syncStatus(config: AgentConfig): Promise<Record<string, unknown>> {
  const credentials = await loadCredentials(config);
  const [consented, reachable, state] = await Promise.all([
    hasConsent(config),
    credentials === undefined ? Promise.resolve(false) : serverReachable(credentials),
    loadSyncState(config),
  ]);
  return { consented, server_reachable: reachable, ...state };
}
