import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the agent reads and keeps things, from the environment (the one place that reads it). */
export interface AgentConfig {
  /** MMW_URL: the MCP endpoint, e.g. https://mmw.example.com/mcp; the saved login otherwise. */
  url: string | undefined;
  /** MMW_KEY: an mmw_… key; the saved login otherwise. */
  key: string | undefined;
  /** MMW_AGENT_HOME: the agent's own state (login, consent, cursors). */
  home: string;
  /** CLAUDE_CONFIG_DIR: Claude Code's folder; its projects/**\/*.jsonl are read. */
  claudeDir: string;
  /** CODEX_HOME: Codex's folder; its sessions/**\/*.jsonl are read. */
  codexDir: string;
  /** How long a call keeps retrying an unreachable server before it answers with an error. */
  retryMs: number;
  /** How often the stdio server syncs in the background once consent is given. */
  syncIntervalMs: number;
  /** Messages per upload batch (the server takes at most 500). */
  batchMessages: number;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === '' ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
}

export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const home = env.HOME ?? homedir();
  const nonEmpty = (value: string | undefined) =>
    value === undefined || value.trim() === '' ? undefined : value.trim();
  return {
    url: nonEmpty(env.MMW_URL),
    key: nonEmpty(env.MMW_KEY),
    home: nonEmpty(env.MMW_AGENT_HOME) ?? join(home, '.config', 'mmw-agent'),
    claudeDir: nonEmpty(env.CLAUDE_CONFIG_DIR) ?? join(home, '.claude'),
    codexDir: nonEmpty(env.CODEX_HOME) ?? join(home, '.codex'),
    retryMs: positiveNumber(env.MMW_AGENT_RETRY_SECONDS, 30) * 1000,
    syncIntervalMs: positiveNumber(env.MMW_AGENT_SYNC_SECONDS, 300) * 1000,
    batchMessages: Math.min(500, Math.trunc(positiveNumber(env.MMW_AGENT_BATCH_MESSAGES, 200))),
  };
}
