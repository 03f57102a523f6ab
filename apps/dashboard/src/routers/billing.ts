import { AppError, billingOverviewSchema, SOLD_PLAN_IDS, type Billing } from '@mmw/core';
import { z } from 'zod';
import { orgAdminProcedure, orgMemberProcedure, router } from '../trpc/trpc.ts';
import type { Context } from '../trpc/context.ts';

const redirect = z.object({ url: z.url() });

function billingOf(ctx: Context): Billing {
  if (ctx.deps.billing === undefined) throw new AppError('not_found', 'billing is not set up on this server');
  return ctx.deps.billing;
}

export const billingRouter = router({
  /** Plan, status, access and usage against the plan: for every member. */
  overview: orgMemberProcedure.output(billingOverviewSchema).query(({ ctx }) => billingOf(ctx).overview(ctx.member)),

  /** A Checkout Session for a plan; the browser goes to its URL. */
  checkout: orgAdminProcedure
    .input(z.object({ plan: z.enum(SOLD_PLAN_IDS) }))
    .output(redirect)
    .mutation(({ ctx, input }) => billingOf(ctx).startCheckout(ctx.member, { plan: input.plan, origin: ctx.origin })),

  /** Stripe's customer portal: card, invoices, plan changes and cancellation. */
  portal: orgAdminProcedure
    .output(redirect)
    .mutation(({ ctx }) => billingOf(ctx).openPortal(ctx.member, { origin: ctx.origin })),

  /** Reads the subscription from Stripe now: the page Checkout returns to calls it. */
  refresh: orgAdminProcedure
    .output(billingOverviewSchema)
    .mutation(({ ctx }) => billingOf(ctx).refresh(ctx.member)),
});
