import Stripe from 'stripe';

/** The Stripe-Signature header Stripe would send for this body, made by Stripe's own library. */
export function stripeSignature(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}

export interface Delivery {
  status: number;
  body: { outcome?: string; eventId?: string; error?: string };
}

/**
 * Posts an event to a webhook endpoint as Stripe does: the JSON body and its signature. A test may
 * sign with another secret or time, send a different body than it signed, or send its own header.
 */
export async function signedStripeDelivery(
  url: string,
  event: { id: string },
  secret: string,
  options: { timestamp?: number; body?: string; signature?: string | null } = {},
): Promise<Delivery> {
  const payload = JSON.stringify(event, null, 2);
  const signature =
    options.signature === undefined ? stripeSignature(payload, secret, options.timestamp) : options.signature;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    body: options.body ?? payload,
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as Delivery['body'] };
  } catch {
    return { status: response.status, body: { error: text } };
  }
}
