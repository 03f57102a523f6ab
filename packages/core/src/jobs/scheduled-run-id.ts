import { createHash } from 'node:crypto';

/**
 * The id of one scheduled run of a queue (a day's reconciliation, an hour's sweep): a UUID made from
 * the queue and the period, so every worker that schedules the same period enqueues one job.
 */
export function scheduledRunId(queue: string, period: string): string {
  const hex = createHash('sha256').update(`mmw:${queue}:${period}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
