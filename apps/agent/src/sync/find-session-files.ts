import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentConfig } from '../config.ts';

export type SessionTool = 'claude-code' | 'codex';

export interface SessionFile {
  path: string;
  tool: SessionTool;
}

const MAX_DEPTH = 8;
const MAX_FILES = 100_000;

/** Every *.jsonl file under a folder (not following links), to a bounded depth and count. */
async function jsonlFiles(root: string, found: string[], depth = 0): Promise<void> {
  if (depth > MAX_DEPTH || found.length >= MAX_FILES) return;
  let dir;
  try {
    dir = await opendir(root);
  } catch {
    return;
  }
  for await (const entry of dir) {
    const path = join(root, entry.name);
    if (entry.isDirectory()) await jsonlFiles(path, found, depth + 1);
    else if (entry.isFile() && entry.name.endsWith('.jsonl') && found.length < MAX_FILES) found.push(path);
  }
}

/** Claude Code's projects/**\/*.jsonl and Codex's sessions/**\/*.jsonl, in a stable order. */
export async function findSessionFiles(config: AgentConfig): Promise<SessionFile[]> {
  const claude: string[] = [];
  const codex: string[] = [];
  await jsonlFiles(join(config.claudeDir, 'projects'), claude);
  await jsonlFiles(join(config.codexDir, 'sessions'), codex);
  return [
    ...claude.sort().map((path) => ({ path, tool: 'claude-code' as const })),
    ...codex.sort().map((path) => ({ path, tool: 'codex' as const })),
  ];
}
