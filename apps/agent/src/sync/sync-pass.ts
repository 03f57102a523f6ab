import { stat } from 'node:fs/promises';
import type { AgentConfig } from '../config.ts';
import { hasConsent } from '../consent.ts';
import { loadCursors, resumeAt, saveCursors } from './cursors.ts';
import { findSessionFiles } from './find-session-files.ts';
import { looksBinary, readHead } from './read-lines.ts';
import { saveSyncState, type SyncState } from './sync-status.ts';
import { uploadFile, type UploadTarget } from './upload-file.ts';

export interface SyncProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  messages: number;
}

const MAX_REPORTED_PROBLEMS = 3;

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unknown error';
}

/**
 * One pass over the session files: each is uploaded from its cursor to its last complete line.
 * Nothing is sent without consent, and consent is asked again before every batch. A file that
 * cannot be read, or a line that cannot be parsed, is skipped and reported in last_error; a server
 * that cannot be reached ends the pass (the cursors keep what was stored).
 */
export async function syncPass(
  config: AgentConfig,
  target: UploadTarget,
  onProgress: (progress: SyncProgress) => void = () => {},
): Promise<SyncState> {
  const files = await findSessionFiles(config);
  const cursors = await loadCursors(config);
  const problems: string[] = [];
  const plans = [];
  for (const file of files) {
    try {
      const size = (await stat(file.path)).size;
      plans.push({ file, size, cursor: await resumeAt(file.path, size, cursors[file.path]) });
    } catch (error) {
      problems.push(`${file.path}: ${describe(error)}`);
    }
  }
  const progress: SyncProgress = {
    filesDone: 0,
    filesTotal: plans.length,
    bytesDone: 0,
    bytesTotal: plans.reduce((sum, plan) => sum + (plan.size - plan.cursor.offset), 0),
    messages: 0,
  };
  onProgress(progress);
  // Files read to their last complete line (a partial last line may still be being written).
  let uploaded = 0;
  let skipped = 0;
  let stopped: string | undefined;
  for (const { file, size, cursor } of plans) {
    if (stopped !== undefined) break;
    let finished = true;
    if (cursor.offset < size) {
      if (!(await hasConsent(config))) {
        stopped = 'consent withdrawn: uploads stopped';
        break;
      }
      try {
        if (looksBinary(await readHead(file.path, 8192))) {
          problems.push(`${file.path}: not a text file, skipped`);
          skipped++;
          progress.filesDone++;
          continue;
        }
        const outcome = await uploadFile(file, cursor, target, async (next, bytes, messages) => {
          cursors[file.path] = next;
          await saveCursors(config, cursors);
          progress.bytesDone += bytes;
          progress.messages += messages;
          onProgress(progress);
        });
        problems.push(...outcome.problems.map((problem) => `${file.path}: ${problem}`));
        finished = outcome.finished;
        if (!outcome.finished) stopped = 'consent withdrawn: uploads stopped';
      } catch (error) {
        finished = false;
        stopped = `${file.path}: ${describe(error)}`;
      }
    }
    if (finished) uploaded++;
    progress.filesDone++;
    onProgress(progress);
  }
  const reported = [...(stopped === undefined ? [] : [stopped]), ...problems];
  const state: SyncState = {
    files_found: files.length,
    files_uploaded: uploaded,
    messages_uploaded: Object.values(cursors).reduce((sum, cursor) => sum + cursor.messages, 0),
    pending: plans.length - uploaded - skipped,
    last_sync_at: new Date().toISOString(),
    last_error:
      reported.length === 0
        ? null
        : reported.slice(0, MAX_REPORTED_PROBLEMS).join('; ') +
          (reported.length > MAX_REPORTED_PROBLEMS
            ? ` (and ${reported.length - MAX_REPORTED_PROBLEMS} more)`
            : ''),
  };
  await saveSyncState(config, state);
  return state;
}
