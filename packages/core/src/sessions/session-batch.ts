import { z } from 'zod';
import { sessionRoles, sessionTools } from '@mmw/db';

/** Bounds of one upload batch: the agent cuts its batches well inside them. */
export const MAX_BATCH_MESSAGES = 500;
export const MAX_MESSAGE_CHARS = 16_000;

const noNul = (value: string) => !value.includes('\u0000');

/** One POST /sessions/upload body: messages of one or more sessions, under an id the agent chose. */
export const sessionBatchSchema = z
  .object({
    batch_id: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'batch_id: 8 to 128 letters, digits, _ or -'),
    sessions: z
      .array(
        z.object({
          tool: z.enum(sessionTools),
          external_id: z.string().min(1).max(200).refine(noNul),
          project_path: z.string().max(1000).refine(noNul).nullable(),
          messages: z.array(
            z.object({
              key: z.string().min(1).max(128).refine(noNul),
              role: z.enum(sessionRoles),
              content: z.string().min(1).max(MAX_MESSAGE_CHARS).refine(noNul),
              at: z.iso.datetime({ offset: true }),
            }),
          ),
        }),
      )
      .max(MAX_BATCH_MESSAGES),
  })
  .refine(
    (batch) =>
      batch.sessions.reduce((sum, session) => sum + session.messages.length, 0) <= MAX_BATCH_MESSAGES,
    `a batch holds at most ${MAX_BATCH_MESSAGES} messages`,
  );

export type SessionBatch = z.infer<typeof sessionBatchSchema>;

export interface SessionBatchResult {
  batch_id: string;
  /** Messages stored by this batch (0 for messages the server already had). */
  stored: number;
  /** True when the batch had been stored before: nothing was stored or counted again. */
  repeated: boolean;
}
