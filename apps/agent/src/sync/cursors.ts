import { createHash } from 'node:crypto';
import { join } from 'node:path';
import type { AgentConfig } from '../config.ts';
import { readJsonFile, writeJsonFile } from '../json-file.ts';
import { readHead } from './read-lines.ts';

/** How far a file was uploaded, and what its beginning looked like then (to tell a rewritten file). */
export interface FileCursor {
  offset: number;
  headLength: number;
  headHash: string;
  sessionId?: string;
  projectPath?: string;
  messages: number;
}

export type Cursors = Record<string, FileCursor>;

const HEAD_BYTES = 4096;
const cursorsPath = (config: AgentConfig) => join(config.home, 'cursors.json');

export async function loadCursors(config: AgentConfig): Promise<Cursors> {
  const stored = await readJsonFile(cursorsPath(config));
  return typeof stored === 'object' && stored !== null ? (stored as Cursors) : {};
}

export async function saveCursors(config: AgentConfig, cursors: Cursors): Promise<void> {
  await writeJsonFile(cursorsPath(config), cursors);
}

async function headHash(path: string, length: number): Promise<string> {
  return createHash('sha256')
    .update(await readHead(path, length))
    .digest('hex');
}

/** The head of a file as a cursor at `offset` records it. */
export async function headAt(
  path: string,
  offset: number,
): Promise<{ headLength: number; headHash: string }> {
  const headLength = Math.min(HEAD_BYTES, offset);
  return { headLength, headHash: await headHash(path, headLength) };
}

/**
 * Where to go on in a file: its cursor when the file only grew since; the start when it shrank or
 * its beginning changed (a rewritten file; what was sent before is stored once by its message keys).
 */
export async function resumeAt(
  path: string,
  size: number,
  cursor: FileCursor | undefined,
): Promise<FileCursor> {
  const fresh: FileCursor = { offset: 0, headLength: 0, headHash: '', messages: 0 };
  if (!cursor) return fresh;
  if (size < cursor.offset) return { ...fresh, messages: cursor.messages };
  if ((await headHash(path, cursor.headLength)) !== cursor.headHash)
    return { ...fresh, messages: cursor.messages };
  return cursor;
}
