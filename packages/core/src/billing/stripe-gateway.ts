import Stripe from 'stripe';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';
import type { BillingGateway, RemoteSubscription, WebhookEvent } from './billing-gateway.ts';

/** The only module that speaks to Stripe: its Node library, pointed at STRIPE_API_URL when set. */
export interface StripeGatewayOptions {
  secretKey: string;
  /** Stripe's API by default; a local stub in tests. */
  apiUrl: string | undefined;
  /** Every secret that may sign a webhook: two while a secret is rolled. */
  webhookSecrets: string[];
  toleranceSeconds: number;
}

const fromUnix = (seconds: number | null | undefined): Date | null =>
  seconds === null || seconds === undefined ? null : new Date(seconds * 1000);

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

function toRemote(subscription: Stripe.Subscription): RemoteSubscription {
  const items = subscription.items.data;
  const starts = items.map((item) => item.current_period_start);
  const ends = items.map((item) => item.current_period_end);
  return {
    id: subscription.id,
    customerId: idOf(subscription.customer) ?? '',
    status: subscription.status,
    priceId: items[0]?.price.id ?? null,
    created: new Date(subscription.created * 1000),
    currentPeriodStart: starts.length === 0 ? null : fromUnix(Math.min(...starts)),
    currentPeriodEnd: ends.length === 0 ? null : fromUnix(Math.max(...ends)),
    endedAt: fromUnix(subscription.ended_at),
    trialEnd: fromUnix(subscription.trial_end),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

/** The ids an allowlisted event names; other types name none. */
function idsOf(event: Stripe.Event): Pick<WebhookEvent, 'customerId' | 'subscriptionId' | 'clientReferenceId'> {
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      return {
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
        clientReferenceId: session.client_reference_id,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
    case 'customer.subscription.paused':
    case 'customer.subscription.resumed':
    case 'customer.subscription.trial_will_end': {
      const subscription = event.data.object;
      return { customerId: idOf(subscription.customer), subscriptionId: subscription.id, clientReferenceId: null };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed':
    case 'invoice.payment_action_required': {
      const invoice = event.data.object;
      return {
        customerId: idOf(invoice.customer),
        subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
        clientReferenceId: null,
      };
    }
    default:
      return { customerId: null, subscriptionId: null, clientReferenceId: null };
  }
}

/**
 * The signed time (`t=`) of a Stripe-Signature header, in seconds; NaN when there is none. Stripe's
 * library refuses a timestamp older than the tolerance but takes any timestamp in the future.
 */
export function signedAtSeconds(signature: string): number {
  for (const part of signature.split(',')) {
    const [name, value] = part.trim().split('=', 2);
    if (name === 't' && value !== undefined && value !== '') return Number(value);
  }
  return Number.NaN;
}

/** Stripe's errors carry request details; people and logs get this instead. */
function unavailable(): AppError {
  return new AppError('unavailable', 'Stripe could not be reached; try again in a moment');
}

function badSignature(): AppError {
  return new AppError('invalid_input', 'the Stripe-Signature header does not match this body and a current timestamp');
}

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw unavailable();
  }
}

/** The gateway of a config: none when billing is off (no STRIPE_SECRET_KEY). */
export function gatewayFromConfig(config: Config): BillingGateway | undefined {
  const secretKey = config.STRIPE_SECRET_KEY;
  return secretKey === undefined
    ? undefined
    : createStripeGateway({
        secretKey,
        apiUrl: config.STRIPE_API_URL,
        webhookSecrets: config.STRIPE_WEBHOOK_SECRET,
        toleranceSeconds: config.STRIPE_WEBHOOK_TOLERANCE_SECONDS,
      });
}

export function createStripeGateway(options: StripeGatewayOptions): BillingGateway {
  const api = options.apiUrl === undefined ? undefined : new URL(options.apiUrl);
  const stripe = new Stripe(options.secretKey, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'mmw' },
    ...(api === undefined
      ? {}
      : {
          host: api.hostname,
          port: api.port === '' ? (api.protocol === 'http:' ? 80 : 443) : Number(api.port),
          protocol: api.protocol === 'http:' ? ('http' as const) : ('https' as const),
        }),
  });

  return {
    async createCustomer({ accountId, name }) {
      const customer = await call(() =>
        stripe.customers.create(
          { name, metadata: { account_id: accountId } },
          // A repeat within Stripe's idempotency window returns the same customer.
          { idempotencyKey: `mmw-customer-${accountId}` },
        ),
      );
      return { id: customer.id };
    },

    async customerAccountId(customerId) {
      try {
        const customer = await stripe.customers.retrieve(customerId);
        if (customer.deleted === true) return undefined;
        return customer.metadata.account_id;
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return undefined;
        throw unavailable();
      }
    },

    async createCheckoutSession(input) {
      const session = await call(() =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: input.customerId,
          client_reference_id: input.accountId,
          line_items: [{ price: input.priceId, quantity: 1 }],
          subscription_data: {
            metadata: { account_id: input.accountId },
            ...(input.trialDays === undefined ? {} : { trial_period_days: input.trialDays }),
          },
          metadata: { account_id: input.accountId },
          allow_promotion_codes: true,
          success_url: input.successUrl,
          cancel_url: input.cancelUrl,
        }),
      );
      if (session.url === null) throw unavailable();
      return { id: session.id, url: session.url };
    },

    async createPortalSession({ customerId, returnUrl }) {
      const session = await call(() => stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl }));
      return { url: session.url };
    },

    async retrievePrice(priceId) {
      const price = await call(() => stripe.prices.retrieve(priceId));
      return {
        unitAmount: price.unit_amount,
        currency: price.currency,
        interval: price.recurring?.interval ?? null,
        intervalCount: price.recurring?.interval_count ?? 1,
      };
    },

    async listSubscriptions(customerId) {
      return call(async () => {
        const found: RemoteSubscription[] = [];
        for await (const subscription of stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 100 })) {
          found.push(toRemote(subscription));
        }
        return found;
      });
    },

    verifyWebhook(rawBody, signature, receivedAt) {
      // The tolerance holds both ways: a signature dated ahead of our clock is refused too.
      const aheadSeconds = signedAtSeconds(signature) - receivedAt.getTime() / 1000;
      if (!(aheadSeconds <= options.toleranceSeconds)) throw badSignature();
      for (const secret of options.webhookSecrets) {
        let event: Stripe.Event;
        try {
          event = stripe.webhooks.constructEvent(
            rawBody,
            signature,
            secret,
            options.toleranceSeconds,
            undefined,
            receivedAt.getTime(),
          );
        } catch {
          continue;
        }
        return { id: event.id, type: event.type, created: new Date(event.created * 1000), ...idsOf(event) };
      }
      throw badSignature();
    },
  };
}
