import type { AgentConfig } from './config.ts';
import { hasConsent } from './consent.ts';
import { loadCredentials } from './credentials.ts';
import { serverTarget } from './server-target.ts';
import { syncPass } from './sync/sync-pass.ts';

const FIRST_PASS_MS = 2_000;

/** Sync passes while the stdio server runs, one at a time, only once consent is given. */
export function startBackgroundSync(config: AgentConfig): { stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const pass = async () => {
    try {
      const credentials = await loadCredentials(config);
      if (credentials && (await hasConsent(config)))
        await syncPass(config, serverTarget(config, credentials));
    } catch (error) {
      process.stderr.write(
        `mmw-agent: background sync failed: ${error instanceof Error ? error.message : 'unknown error'}\n`,
      );
    }
    if (!stopped) {
      timer = setTimeout(() => void pass(), config.syncIntervalMs);
      timer.unref();
    }
  };
  timer = setTimeout(() => void pass(), FIRST_PASS_MS);
  timer.unref();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
