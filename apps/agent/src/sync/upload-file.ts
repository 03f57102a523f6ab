import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { redactSecrets } from '@mmw/core/redact-secrets';
import { parseClaudeCodeLine } from './claude-code-lines.ts';
import { parseCodexLine } from './codex-lines.ts';
import { headAt, type FileCursor } from './cursors.ts';
import type { SessionFile } from './find-session-files.ts';
import { readLines } from './read-lines.ts';
import type { SessionMessage } from './session-message.ts';

export const BATCH_BYTES = 1024 * 1024;

export interface UploadTarget {
  /** Sends one batch; resolves once the server stored it. */
  send(batch: unknown): Promise<void>;
  /** Whether uploads may go on (consent not withdrawn): asked before every batch. */
  mayUpload(): Promise<boolean>;
  batchMessages: number;
}

export interface FileOutcome {
  cursor: FileCursor;
  /** Lines skipped (malformed, binary, too long), briefly. */
  problems: string[];
  /** False when the upload stopped before the file's end (consent withdrawn). */
  finished: boolean;
}

/**
 * Uploads a file from its cursor: its complete lines are parsed, their messages redacted on this
 * computer and sent in batches; after each batch the server stored, the cursor moves past its
 * lines (saved by onCursor), so a crash or a network error resumes from there. A batch's id comes
 * from the file and the bytes it covers: sent again, it is stored once.
 */
export async function uploadFile(
  file: SessionFile,
  start: FileCursor,
  target: UploadTarget,
  onCursor: (cursor: FileCursor, bytes: number, messages: number) => Promise<void>,
): Promise<FileOutcome> {
  let cursor = start;
  const problems: string[] = [];
  let batch: SessionMessage[] = [];
  let batchBytes = 0;
  let end = cursor.offset;
  let lineNumber = 0;
  const flush = async () => {
    if (batch.length > 0) {
      if (!(await target.mayUpload())) return false;
      await target.send({
        batch_id: batchId(file.path, cursor, end),
        sessions: [
          {
            tool: file.tool,
            external_id: cursor.sessionId ?? basename(file.path, '.jsonl'),
            project_path:
              cursor.projectPath === undefined ? null : (await redactSecrets(cursor.projectPath)).text,
            messages: batch,
          },
        ],
      });
    }
    const bytes = end - cursor.offset;
    cursor = {
      ...cursor,
      ...(await headAt(file.path, end)),
      offset: end,
      messages: cursor.messages + batch.length,
    };
    await onCursor(cursor, bytes, batch.length);
    batch = [];
    batchBytes = 0;
    return true;
  };
  for await (const line of readLines(file.path, cursor.offset)) {
    lineNumber++;
    end = line.end;
    if (line.text === undefined) {
      problems.push(`${line.skipped ?? 'a line'} skipped`);
      continue;
    }
    if (line.text.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line.text) as unknown;
    } catch {
      problems.push(`a malformed line skipped (line ${lineNumber} after the cursor)`);
      continue;
    }
    const parsed = file.tool === 'claude-code' ? parseClaudeCodeLine(json) : parseCodexLine(json, line.text);
    // The session's id and folder are known from its lines: they go with the batch that follows.
    if (parsed.sessionId !== undefined && cursor.sessionId === undefined)
      cursor = { ...cursor, sessionId: parsed.sessionId };
    if (parsed.projectPath !== undefined && cursor.projectPath === undefined)
      cursor = { ...cursor, projectPath: parsed.projectPath };
    for (const message of parsed.messages) {
      const content = (await redactSecrets(message.content)).text;
      batch.push({ ...message, content });
      batchBytes += content.length + 200;
    }
    if (batch.length >= target.batchMessages || batchBytes >= BATCH_BYTES) {
      if (!(await flush())) return { cursor, problems, finished: false };
    }
  }
  if (end > cursor.offset || batch.length > 0) {
    if (!(await flush())) return { cursor, problems, finished: false };
  }
  return { cursor, problems, finished: true };
}

function batchId(path: string, cursor: FileCursor, end: number): string {
  return createHash('sha256')
    .update(`${path}\n${cursor.headHash}\n${cursor.offset}\n${end}`)
    .digest('hex')
    .slice(0, 48);
}
