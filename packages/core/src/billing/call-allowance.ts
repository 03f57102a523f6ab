import { messages } from '../errors.ts';
import type { Plan } from './plans.ts';

/** The first day of the next calendar month in UTC: when a month's call allowance starts over. */
export function allowanceResetsOn(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
}

const grouped = new Intl.NumberFormat('en-US');

/** The notice of a spent allowance: it names the allowance, the plan and the day it resets. */
export function allowanceSpentNotice(plan: Plan & { callsPerMonth: number }, now: Date): string {
  const resets = allowanceResetsOn(now).toISOString().slice(0, 10);
  return messages.notice(
    `this account has used the ${grouped.format(plan.callsPerMonth)} tool calls a month of its ${plan.name} plan, so memory is read-only until the allowance resets on ${resets} (UTC): search and validate_memory work, remember and forget do not. An owner or admin can change the plan in the MMW dashboard under Billing.`,
  );
}

/**
 * The notice when the plan's monthly call allowance is spent, or undefined while calls remain (or
 * the plan has none). The calls are those counted before this one; counts reach the database a
 * moment after each call, so a burst can pass the allowance by the calls of that moment.
 */
export function spentAllowance(plan: Plan, callsThisMonth: number, now: Date): string | undefined {
  const allowance = plan.callsPerMonth;
  if (allowance === null || callsThisMonth < allowance) return undefined;
  return allowanceSpentNotice({ ...plan, callsPerMonth: allowance }, now);
}
