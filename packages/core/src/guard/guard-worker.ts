/**
 * The Guard's work for one record, as a worker thread of the guard pool runs it. The worker says
 * on `started` when it begins, so the pool's budget counts checking time, not time in the queue.
 * A refusal comes back as a value: an AppError does not survive the trip between threads.
 */
import type { MessagePort } from 'node:worker_threads';
import { checkRecord, type RecordCheck } from './guard-record.ts';

export type GuardFields = Record<string, string | null | undefined>;

export interface GuardTask {
  readonly fields: GuardFields;
  readonly started?: MessagePort;
}

// The first record would pay for loading the model's weights and compiling the patterns: each
// worker does that as it loads, before it takes a task, outside any record's budget.
await checkRecord({ content: 'The staging deploy runs on Fridays; ask the assistant to check the logs.' });

export default async function guardInWorker(task: GuardTask): Promise<RecordCheck<GuardFields>> {
  task.started?.postMessage(true);
  task.started?.close();
  return checkRecord(task.fields);
}
