import { AUDIT_PAGE_MAX, auditEventSchema, auditFilterSchema, exportAuditCsv, listAuditEvents } from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, router } from '../trpc/trpc.ts';

export const auditRouter = router({
  list: orgAdminProcedure
    .input(auditFilterSchema.extend({ cursor: z.number().int().positive().optional(), limit: z.number().int().min(1).max(AUDIT_PAGE_MAX).optional() }))
    .output(z.object({ events: z.array(auditEventSchema), nextCursor: z.number().nullable() }))
    .query(({ ctx, input }) => listAuditEvents(ctx.deps.db, ctx.member, input)),

  exportCsv: orgAdminProcedure
    .input(auditFilterSchema)
    .output(z.object({ csv: z.string(), rows: z.number(), filename: z.string() }))
    .query(async ({ ctx, input }) => ({
      ...(await exportAuditCsv(ctx.deps.db, ctx.member, input)),
      filename: `mmw-audit-${new Date().toISOString().slice(0, 10)}.csv`,
    })),
});
