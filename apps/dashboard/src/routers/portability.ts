import {
  exportCursorSchema,
  exportPage,
  importJsonLines,
  MAX_UPLOAD_BYTES,
  readLines,
} from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, router } from '../trpc/trpc.ts';

const name = z.string().trim().min(1).max(100);

/** The most characters of a file the dashboard takes in one upload; larger ones go through `pnpm mmw import`. */
export const UPLOAD_MAX_CHARS = MAX_UPLOAD_BYTES;

const importReportSchema = z.object({
  source: z.string(),
  imported: z.number(),
  tombstones: z.number(),
  relations: z.number(),
  alreadyPresent: z.number(),
  droppedReferences: z.number(),
  skipped: z.number(),
  skippedByReason: z.record(z.string(), z.number()),
  skippedLines: z.array(z.object({ line: z.number(), id: z.string(), reason: z.string() })),
});

export const portabilityRouter = router({
  /** One page of the JSON Lines export (docs/export-format.md); the web UI joins the pages into a download. */
  exportPage: orgAdminProcedure
    .input(z.object({ project: name.optional(), workspace: name.optional(), cursor: exportCursorSchema.nullable() }))
    .output(z.object({ text: z.string(), next: exportCursorSchema.nullable() }))
    .query(({ ctx, input }) =>
      exportPage(ctx.deps.db, ctx.member, { project: input.project, workspace: input.workspace }, input.cursor, {
        instance: ctx.deps.publicOrigin ?? null,
      }),
    ),

  /** An uploaded export, imported into this account: every record through the Guard, in one transaction. */
  import: orgAdminProcedure
    .input(
      z.object({
        project: name.optional(),
        file: z.string().max(UPLOAD_MAX_CHARS, `the file is too large: at most ${UPLOAD_MAX_CHARS} characters here; import larger ones with pnpm mmw import`),
      }),
    )
    .output(importReportSchema)
    .mutation(async ({ ctx, input }) => {
      const allowance = await ctx.deps.billing?.overview(ctx.member);
      return importJsonLines(ctx.deps.db, ctx.member, { project: input.project }, readLines([input.file]), {
        guard: ctx.deps.guardInput,
        ...(allowance === undefined ? {} : { allowance }),
      });
    }),
});
