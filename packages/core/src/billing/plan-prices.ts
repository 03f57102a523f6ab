import type { BillingGateway, PlanPrice } from './billing-gateway.ts';
import { SOLD_PLAN_IDS, plans, type SoldPlanId } from './plans.ts';
import type { Config } from '../config.ts';

export type PlanPrices = Partial<Record<SoldPlanId, PlanPrice>>;

export interface PlanPriceCache {
  /** The sold plans' prices as Stripe has them; a price Stripe could not give is left out. */
  read(): Promise<PlanPrices>;
}

/**
 * The plan picker's prices, read from Stripe and kept for STRIPE_PRICE_CACHE_SECONDS (a page view
 * is no reason to call Stripe). Concurrent readers share one read. A failed read is kept for a tenth
 * of that time at most, so a short Stripe outage shows the plans without prices, then heals.
 */
export function createPlanPriceCache(config: Config, gateway: BillingGateway, now: () => Date): PlanPriceCache {
  const ttlMs = config.STRIPE_PRICE_CACHE_SECONDS * 1000;
  let kept: { prices: PlanPrices; until: number } | undefined;
  let reading: Promise<PlanPrices> | undefined;

  async function readFromStripe(): Promise<PlanPrices> {
    const all = plans(config);
    const prices: PlanPrices = {};
    let failed = false;
    await Promise.all(
      SOLD_PLAN_IDS.map(async (id) => {
        const priceId = all[id].stripePriceId;
        if (priceId === undefined) return;
        try {
          prices[id] = await gateway.retrievePrice(priceId);
        } catch {
          failed = true;
        }
      }),
    );
    kept = { prices, until: now().getTime() + (failed ? Math.ceil(ttlMs / 10) : ttlMs) };
    return prices;
  }

  return {
    read() {
      if (kept !== undefined && kept.until > now().getTime()) return Promise.resolve(kept.prices);
      reading ??= readFromStripe().finally(() => {
        reading = undefined;
      });
      return reading;
    },
  };
}
