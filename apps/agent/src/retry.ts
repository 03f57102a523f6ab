/** A failure worth trying again: the server could not be reached, or said it is busy for a moment. */
export class TransientError extends Error {}

const FIRST_DELAY_MS = 200;
const MAX_DELAY_MS = 3_000;

/**
 * Runs attempt until it succeeds, fails with something other than a TransientError, or the time
 * is up (then the last TransientError is thrown). The delays grow from 0.2 s to 3 s.
 */
export async function withRetry<T>(attempt: () => Promise<T>, totalMs: number): Promise<T> {
  const deadline = Date.now() + totalMs;
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof TransientError)) throw error;
      const left = deadline - Date.now();
      if (left <= 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(delay, left)));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
}
