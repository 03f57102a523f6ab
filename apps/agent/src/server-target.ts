import type { AgentConfig } from './config.ts';
import { hasConsent } from './consent.ts';
import { routeBeside, type Credentials } from './credentials.ts';
import { RemoteServer } from './remote-server.ts';
import type { UploadTarget } from './sync/upload-file.ts';

/** Uploads to the server's POST /sessions/upload, with the key, retried like any call. */
export function serverTarget(config: AgentConfig, credentials: Credentials): UploadTarget {
  const server = new RemoteServer(credentials, config.retryMs);
  const url = routeBeside(credentials.url, '/sessions/upload');
  return {
    batchMessages: config.batchMessages,
    mayUpload: () => hasConsent(config),
    send: async (batch) => {
      await server.postJson(url, batch);
    },
  };
}

/** Whether the server answers its health check, within a few seconds. */
export async function serverReachable(credentials: Credentials): Promise<boolean> {
  try {
    const response = await fetch(routeBeside(credentials.url, '/healthz'), {
      signal: AbortSignal.timeout(3_000),
    });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
