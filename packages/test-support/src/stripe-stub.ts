import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { signedStripeDelivery } from './stripe-webhooks.ts';

/**
 * A local HTTP stub of the parts of Stripe's API that MMW uses, for Stripe's own Node library to talk
 * to (STRIPE_API_URL). It keeps customers, Checkout Sessions and subscriptions in memory, serves a
 * Checkout page a browser can walk through, and builds the events Stripe would send.
 */

type Form = { [key: string]: string | Form };

export interface StubSubscription {
  id: string;
  object: 'subscription';
  customer: string;
  status: string;
  created: number;
  start_date: number;
  cancel_at_period_end: boolean;
  canceled_at: number | null;
  ended_at: number | null;
  trial_start: number | null;
  trial_end: number | null;
  metadata: Record<string, string>;
  livemode: false;
  items: {
    object: 'list';
    has_more: false;
    url: string;
    data: Array<{
      id: string;
      object: 'subscription_item';
      quantity: 1;
      price: { id: string; object: 'price' };
      current_period_start: number;
      current_period_end: number;
    }>;
  };
}

export interface StubCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: 'subscription';
  status: 'open' | 'complete';
  url: string;
  customer: string | null;
  client_reference_id: string | null;
  subscription: string | null;
  success_url: string;
  cancel_url: string;
  metadata: Record<string, string>;
  /** What the stub was asked for (not part of Stripe's object). */
  requested: { priceId: string; trialDays: number | null };
}

export interface StripeEventJson {
  id: string;
  object: 'event';
  type: string;
  created: number;
  api_version: string;
  livemode: false;
  pending_webhooks: 1;
  request: { id: null; idempotency_key: null };
  data: { object: unknown };
}

export interface SubscriptionChange {
  status?: string;
  priceId?: string;
  currentPeriodEnd?: Date;
  endedAt?: Date | null;
  cancelAtPeriodEnd?: boolean;
}

export interface StripeStub {
  url: string;
  secretKey: string;
  webhookSecret: string;
  prices: { pro: string; team: string };
  /** What each price costs a month, in cents of its currency (US dollars); a test may change them. */
  priceAmounts: Record<string, { unitAmount: number; currency: string }>;
  /** The environment that points MMW at this stub. */
  env: Record<string, string>;
  customers: Map<
    string,
    { id: string; object: 'customer'; name: string; metadata: Record<string, string>; created: number }
  >;
  sessions: Map<string, StubCheckoutSession>;
  subscriptions: Map<string, StubSubscription>;
  /** Every API request: method, path and form parameters (never the key). */
  requests: Array<{ method: string; path: string; params: Form }>;
  /** The stub's clock; the test moves it with the service's. */
  clock: () => Date;
  /** Where the Checkout page's Subscribe button delivers the signed events, when set. */
  webhookUrl: string | undefined;
  /** The next n API requests fail with a 500. */
  failNext(n: number): void;
  createCustomer(accountId: string): string;
  createSubscription(
    customerId: string,
    options: { priceId: string; status?: string; trialDays?: number },
  ): StubSubscription;
  updateSubscription(id: string, change: SubscriptionChange): StubSubscription;
  /** Completes a Checkout Session as paying would: a new subscription, and the events that tell it. */
  completeCheckout(sessionId: string): { subscription: StubSubscription; events: StripeEventJson[] };
  event(type: string, object: unknown): StripeEventJson;
  subscriptionEvent(type: string, subscriptionId: string): StripeEventJson;
  invoiceEvent(
    type: 'invoice.paid' | 'invoice.payment_failed' | 'invoice.payment_action_required',
    subscriptionId: string,
  ): StripeEventJson;
  close(): Promise<void>;
}

const DAY = 24 * 60 * 60;
const API_VERSION = '2026-10-28.endive';

function parseForm(text: string): Form {
  const root: Form = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Form = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) {
        node[part] = value;
        return;
      }
      const next = node[part];
      if (typeof next === 'object') node = next;
      else {
        const created: Form = {};
        node[part] = created;
        node = created;
      }
    });
  }
  return root;
}

const field = (form: Form, ...path: string[]): string | undefined => {
  let node: string | Form | undefined = form;
  for (const part of path) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
};

const metadataOf = (form: Form, ...path: string[]): Record<string, string> => {
  let node: string | Form | undefined = form;
  for (const part of path) node = typeof node === 'object' ? node[part] : undefined;
  const out: Record<string, string> = {};
  if (typeof node === 'object')
    for (const [k, v] of Object.entries(node)) if (typeof v === 'string') out[k] = v;
  return out;
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1f36}
.card{border:1px solid #e3e8ee;border-radius:8px;padding:1.5rem;box-shadow:0 2px 6px #0001}
button{background:#635bff;color:#fff;border:0;border-radius:6px;padding:.7rem 1.4rem;font-size:1rem}
.muted{color:#697386}</style></head><body>${body}</body></html>`;
}

export async function startStripeStub(options: { clock?: () => Date } = {}): Promise<StripeStub> {
  const customers: StripeStub['customers'] = new Map();
  const sessions: StripeStub['sessions'] = new Map();
  const subscriptions: StripeStub['subscriptions'] = new Map();
  const requests: StripeStub['requests'] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  let failures = 0;
  let baseUrl = '';

  const stub = {
    secretKey: `sk_test_${randomBytes(12).toString('hex')}`,
    webhookSecret: `whsec_${randomBytes(16).toString('hex')}`,
    prices: { pro: 'price_mmw_pro', team: 'price_mmw_team' },
    priceAmounts: {
      price_mmw_pro: { unitAmount: 1_200, currency: 'usd' },
      price_mmw_team: { unitAmount: 4_900, currency: 'usd' },
    } as StripeStub['priceAmounts'],
    customers,
    sessions,
    subscriptions,
    requests,
    clock: options.clock ?? (() => new Date()),
    webhookUrl: undefined as string | undefined,
  };
  const nowSeconds = () => Math.floor(stub.clock().getTime() / 1000);

  const createCustomer = (accountId: string, name = accountId) => {
    const customer = {
      id: id('cus'),
      object: 'customer' as const,
      name,
      metadata: { account_id: accountId },
      created: nowSeconds(),
    };
    customers.set(customer.id, customer);
    return customer.id;
  };

  const createSubscription = (
    customerId: string,
    settings: { priceId: string; status?: string; trialDays?: number },
  ) => {
    const start = nowSeconds();
    const trialEnd = settings.trialDays === undefined ? null : start + settings.trialDays * DAY;
    const accountId = customers.get(customerId)?.metadata.account_id;
    const subscription: StubSubscription = {
      id: id('sub'),
      object: 'subscription',
      customer: customerId,
      status: settings.status ?? (trialEnd === null ? 'active' : 'trialing'),
      created: start,
      start_date: start,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      trial_start: trialEnd === null ? null : start,
      trial_end: trialEnd,
      metadata: accountId === undefined ? {} : { account_id: accountId },
      livemode: false,
      items: {
        object: 'list',
        has_more: false,
        url: '/v1/subscription_items',
        data: [
          {
            id: id('si'),
            object: 'subscription_item',
            quantity: 1,
            price: { id: settings.priceId, object: 'price' },
            current_period_start: start,
            current_period_end: trialEnd ?? start + 30 * DAY,
          },
        ],
      },
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  };

  const updateSubscription = (subscriptionId: string, change: SubscriptionChange) => {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    const item = subscription.items.data[0];
    if (change.status !== undefined) subscription.status = change.status;
    if (change.cancelAtPeriodEnd !== undefined) subscription.cancel_at_period_end = change.cancelAtPeriodEnd;
    if (change.endedAt !== undefined) {
      subscription.ended_at = change.endedAt === null ? null : Math.floor(change.endedAt.getTime() / 1000);
      subscription.canceled_at = subscription.ended_at;
    }
    if (item && change.priceId !== undefined) item.price = { id: change.priceId, object: 'price' };
    if (item && change.currentPeriodEnd !== undefined) {
      item.current_period_start = item.current_period_end;
      item.current_period_end = Math.floor(change.currentPeriodEnd.getTime() / 1000);
    }
    return subscription;
  };

  const event = (type: string, object: unknown): StripeEventJson => ({
    id: id('evt'),
    object: 'event',
    type,
    created: nowSeconds(),
    api_version: API_VERSION,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    // A snapshot: later changes to the stub's state do not change an event already built.
    data: { object: structuredClone(object) },
  });

  const subscriptionOrThrow = (subscriptionId: string) => {
    const subscription = subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`no subscription ${subscriptionId}`);
    return subscription;
  };

  const completeCheckout = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session?.customer) throw new Error(`no open session ${sessionId}`);
    const subscription = createSubscription(session.customer, {
      priceId: session.requested.priceId,
      ...(session.requested.trialDays === null ? {} : { trialDays: session.requested.trialDays }),
    });
    session.status = 'complete';
    session.subscription = subscription.id;
    return {
      subscription,
      events: [
        event('checkout.session.completed', session),
        event('customer.subscription.created', subscription),
      ],
    };
  };

  const invoiceEvent = (type: string, subscriptionId: string) => {
    const subscription = subscriptionOrThrow(subscriptionId);
    return event(type, {
      id: id('in'),
      object: 'invoice',
      customer: subscription.customer,
      status: type === 'invoice.paid' ? 'paid' : 'open',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id, metadata: {} },
      },
    });
  };

  const send = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    response.end(JSON.stringify(body));
  };
  const missing = (response: ServerResponse, what: string) =>
    send(response, 404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` },
    });

  async function api(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const params = method === 'GET' ? parseForm(url.search.slice(1)) : parseForm(await readBody(request));
    requests.push({ method, path: url.pathname, params });
    if (failures > 0) {
      failures--;
      return send(response, 500, { error: { type: 'api_error', message: 'stub failure' } });
    }
    const key = request.headers['idempotency-key'];
    const replay = typeof key === 'string' ? idempotent.get(`${url.pathname}:${key}`) : undefined;
    if (replay) return send(response, replay.status, replay.body);
    const answer = (status: number, body: unknown) => {
      if (typeof key === 'string' && method === 'POST')
        idempotent.set(`${url.pathname}:${key}`, { status, body });
      send(response, status, body);
    };
    const path = url.pathname;
    let match: RegExpExecArray | null;

    if (method === 'POST' && path === '/v1/customers') {
      const customerId = createCustomer(field(params, 'metadata', 'account_id') ?? '', field(params, 'name'));
      return answer(200, customers.get(customerId));
    }
    if (method === 'GET' && (match = /^\/v1\/customers\/([^/]+)$/.exec(path))) {
      const customer = customers.get(match[1] ?? '');
      return customer ? answer(200, customer) : missing(response, 'customer');
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const sessionId = id('cs_test');
      const trial = field(params, 'subscription_data', 'trial_period_days');
      const session: StubCheckoutSession = {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'open',
        url: `${baseUrl}/checkout/${sessionId}`,
        customer: field(params, 'customer') ?? null,
        client_reference_id: field(params, 'client_reference_id') ?? null,
        subscription: null,
        success_url: field(params, 'success_url') ?? '',
        cancel_url: field(params, 'cancel_url') ?? '',
        metadata: metadataOf(params, 'metadata'),
        requested: {
          priceId: field(params, 'line_items', '0', 'price') ?? '',
          trialDays: trial === undefined ? null : Number(trial),
        },
      };
      sessions.set(sessionId, session);
      return answer(200, session);
    }
    if (method === 'POST' && path === '/v1/billing_portal/sessions') {
      const customer = field(params, 'customer') ?? '';
      if (!customers.has(customer)) return missing(response, 'customer');
      const sessionId = id('bps');
      return answer(200, {
        id: sessionId,
        object: 'billing_portal.session',
        customer,
        return_url: field(params, 'return_url') ?? null,
        url: `${baseUrl}/portal/${sessionId}`,
      });
    }
    if (method === 'GET' && (match = /^\/v1\/prices\/([^/]+)$/.exec(path))) {
      const priceId = match[1] ?? '';
      const amount = stub.priceAmounts[priceId];
      if (amount === undefined) return missing(response, 'price');
      return answer(200, {
        id: priceId,
        object: 'price',
        active: true,
        billing_scheme: 'per_unit',
        currency: amount.currency,
        unit_amount: amount.unitAmount,
        unit_amount_decimal: String(amount.unitAmount),
        recurring: { interval: 'month', interval_count: 1, usage_type: 'licensed' },
        type: 'recurring',
        product: `prod_${priceId}`,
        livemode: false,
        created: nowSeconds(),
        metadata: {},
      });
    }
    if (method === 'GET' && path === '/v1/subscriptions') {
      const customer = field(params, 'customer');
      const data = [...subscriptions.values()].filter(
        (s) => customer === undefined || s.customer === customer,
      );
      return answer(200, { object: 'list', url: '/v1/subscriptions', has_more: false, data });
    }
    if (method === 'GET' && (match = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const subscription = subscriptions.get(match[1] ?? '');
      return subscription ? answer(200, subscription) : missing(response, 'subscription');
    }
    return missing(response, `route ${method} ${path}`);
  }

  async function page(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const checkout = /^\/checkout\/([^/]+)(\/pay)?$/.exec(url.pathname);
    const session = checkout ? sessions.get(checkout[1] ?? '') : undefined;
    if (!checkout || !session) {
      response.writeHead(404, { 'content-type': 'text/html' });
      response.end(html('Not found', '<h1>Not found</h1>'));
      return;
    }
    if (checkout[2] === '/pay' && request.method === 'POST') {
      const { events } = completeCheckout(session.id);
      if (stub.webhookUrl !== undefined) {
        for (const delivered of events)
          await signedStripeDelivery(stub.webhookUrl, delivered, stub.webhookSecret);
      }
      response.writeHead(303, { location: session.success_url });
      response.end();
      return;
    }
    const plan = session.requested.priceId === stub.prices.team ? 'Team' : 'Pro';
    const trial =
      session.requested.trialDays === null
        ? ''
        : `<p>${session.requested.trialDays} days free, then billed monthly.</p>`;
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      html(
        'Checkout (Stripe test stub)',
        `<div class="card"><p class="muted">Stripe Checkout · test stub</p><h1>Subscribe to MMW ${plan}</h1>${trial}
<form method="post" action="/checkout/${session.id}/pay"><button type="submit">Subscribe</button></form>
<p><a href="${session.cancel_url}">Back to MMW</a></p></div>`,
      ),
    );
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    const handler = url.pathname.startsWith('/v1/') ? api : page;
    handler(request, response, url).catch(() =>
      send(response, 500, { error: { type: 'api_error', message: 'stub error' } }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;

  return Object.assign(stub, {
    url: baseUrl,
    env: {
      STRIPE_SECRET_KEY: stub.secretKey,
      STRIPE_WEBHOOK_SECRET: stub.webhookSecret,
      STRIPE_API_URL: baseUrl,
      STRIPE_PRICE_PRO: stub.prices.pro,
      STRIPE_PRICE_TEAM: stub.prices.team,
    },
    failNext: (n: number) => {
      failures = n;
    },
    createCustomer: (accountId: string) => createCustomer(accountId),
    createSubscription,
    updateSubscription,
    completeCheckout,
    event,
    subscriptionEvent: (type: string, subscriptionId: string) =>
      event(type, subscriptionOrThrow(subscriptionId)),
    invoiceEvent,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  });
}
