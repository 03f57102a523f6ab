import { SingleBar } from 'cli-progress';
import type { AgentConfig } from './config.ts';
import { hasConsent } from './consent.ts';
import { loadCredentials } from './credentials.ts';
import { serverTarget } from './server-target.ts';
import { syncPass, type SyncProgress } from './sync/sync-pass.ts';

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `mmw-agent sync`: one pass; a progress bar on a terminal, a one-line summary otherwise. */
export async function sync(config: AgentConfig): Promise<number> {
  if (!(await hasConsent(config))) {
    process.stderr.write(
      'No consent to upload session history: run `mmw-agent consent` first. Nothing was uploaded.\n',
    );
    return 1;
  }
  const credentials = await loadCredentials(config);
  if (!credentials) {
    process.stderr.write('No server to upload to: set MMW_URL and MMW_KEY, or run `mmw-agent login`.\n');
    return 1;
  }
  const bar = process.stderr.isTTY
    ? new SingleBar({
        format: 'files {files} | messages {messages} | {bar} {done} of {total_bytes}',
        stream: process.stderr,
        hideCursor: true,
      })
    : undefined;
  let last: SyncProgress | undefined;
  const onProgress = (progress: SyncProgress) => {
    const fields = {
      files: `${progress.filesDone}/${progress.filesTotal}`,
      messages: progress.messages,
      done: size(progress.bytesDone),
      total_bytes: size(progress.bytesTotal),
    };
    if (bar && !last) bar.start(Math.max(progress.bytesTotal, 1), progress.bytesDone, fields);
    else bar?.update(progress.bytesDone, fields);
    last = { ...progress };
  };
  const state = await syncPass(config, serverTarget(config, credentials), onProgress);
  bar?.stop();
  const summary =
    `mmw-agent sync: ${state.files_found} files found, ${state.files_uploaded} uploaded, ` +
    `${last?.messages ?? 0} messages (${size(last?.bytesDone ?? 0)}) sent, ${state.pending} pending` +
    (state.last_error === null ? '' : `; problems: ${state.last_error}`);
  process.stdout.write(`${summary}\n`);
  return state.pending > 0 ? 1 : 0;
}
