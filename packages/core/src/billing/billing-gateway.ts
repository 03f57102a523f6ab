/**
 * What billing needs from Stripe, in MMW's words. The one implementation over Stripe's library is
 * stripe-gateway.ts; nothing else in MMW speaks to Stripe.
 */

/** A Stripe subscription as MMW reads it: ids, status, price and the dates that decide access. */
export interface RemoteSubscription {
  id: string;
  customerId: string;
  /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
  status: string;
  priceId: string | null;
  created: Date;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  endedAt: Date | null;
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
}

/** A verified webhook event: its id, type and the ids it names. Never the payload. */
export interface WebhookEvent {
  id: string;
  type: string;
  created: Date;
  customerId: string | null;
  subscriptionId: string | null;
  /** Checkout's client_reference_id: the account that started the session. */
  clientReferenceId: string | null;
}

/** A plan's price as Stripe has it: an amount in the currency's minor unit, per interval. */
export interface PlanPrice {
  /** In the currency's smallest unit (cents); null for a price that is not a fixed amount. */
  unitAmount: number | null;
  /** ISO 4217, lower case as Stripe gives it. */
  currency: string;
  /** The billing interval of a recurring price (month, year); null for a one-time price. */
  interval: string | null;
  intervalCount: number;
}

export interface CheckoutRequest {
  accountId: string;
  customerId: string;
  priceId: string;
  trialDays: number | undefined;
  successUrl: string;
  cancelUrl: string;
}

export interface BillingGateway {
  /** A customer for the account; the same account gets the same customer on a repeat. */
  createCustomer(input: { accountId: string; name: string }): Promise<{ id: string }>;
  /** The account a customer was created for (its metadata), if it still exists. */
  customerAccountId(customerId: string): Promise<string | undefined>;
  createCheckoutSession(input: CheckoutRequest): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  /** A price, for the plan picker. */
  retrievePrice(priceId: string): Promise<PlanPrice>;
  /** Every subscription of the customer, whatever its status. */
  listSubscriptions(customerId: string): Promise<RemoteSubscription[]>;
  /**
   * Checks the Stripe-Signature header against the raw body with each configured secret and the
   * timestamp against receivedAt; throws AppError('invalid_input') when none matches.
   */
  verifyWebhook(rawBody: Buffer, signature: string, receivedAt: Date): WebhookEvent;
}
