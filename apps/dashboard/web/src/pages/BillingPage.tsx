import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorText, Loading, PageTitle } from '../components/ui.tsx';
import { UsageBar } from '../components/UsageBar.tsx';
import { navigate, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import type { AccountPageProps } from './page-props.ts';
import './billing.css';

const STATUS_TEXT: Record<string, string> = {
  active: 'Active',
  trialing: 'Trial',
  past_due: 'Payment failed',
  unpaid: 'Unpaid',
  canceled: 'Ended',
  incomplete: 'Payment pending',
  incomplete_expired: 'Payment expired',
  paused: 'Paused',
  none: 'No subscription',
};

const ACCESS_TEXT = { full: 'Memory works in full.', read_only: 'Memory is read-only.', none: 'Memory is unavailable.' } as const;

const isSold = (id: string): id is 'pro' | 'team' => id === 'pro' || id === 'team';
const number = (value: number) => value.toLocaleString('en-US');
const limitText = (value: number | null, unit: string) => (value === null ? `any number of ${unit}` : `${number(value)} ${unit}`);
const date = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

interface Price {
  unitAmount: number | null;
  currency: string;
  interval: string | null;
  intervalCount: number;
}

/** A Stripe price as people read it: "$12 a month"; the amount is in the currency's minor unit. */
function priceText(price: Price): string | null {
  if (price.unitAmount === null) return null;
  const format = new Intl.NumberFormat('en-US', { style: 'currency', currency: price.currency.toUpperCase() });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  const amount = format.format(price.unitAmount / 10 ** digits).replace(/\.00$/, '');
  if (price.interval === null) return amount;
  return price.intervalCount === 1 ? `${amount} a ${price.interval}` : `${amount} every ${price.intervalCount} ${price.interval}s`;
}

/** Plan, status and usage against the plan; owners and admins subscribe and manage billing here. */
export function BillingPage({ accountId }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { search } = useLocation();
  const returned = search.get('checkout');
  const overview = useQuery(trpc.billing.overview.queryOptions({ accountId }));
  const checkout = useMutation(trpc.billing.checkout.mutationOptions({ onSuccess: ({ url }) => window.location.assign(url) }));
  const portal = useMutation(trpc.billing.portal.mutationOptions({ onSuccess: ({ url }) => window.location.assign(url) }));
  const refresh = useMutation(
    trpc.billing.refresh.mutationOptions({
      onSuccess: (fresh) => queryClient.setQueryData(trpc.billing.overview.queryKey({ accountId }), fresh),
    }),
  );
  const refreshed = useRef(false);
  const data = overview.data;

  // Back from Checkout: read the subscription from Stripe now rather than wait for its webhook.
  useEffect(() => {
    if (returned === 'success' && data?.canManage === true && !refreshed.current) {
      refreshed.current = true;
      refresh.mutate({ accountId });
    }
  }, [returned, data?.canManage, accountId, refresh]);

  if (overview.isPending) return <Loading what="billing" />;
  if (!data) return <ErrorText error={overview.error} />;
  const current = data.plan;
  const busy = checkout.isPending || portal.isPending;
  return (
    <>
      <PageTitle>Billing</PageTitle>
      {returned === 'success' ? (
        <div className="panel callout ok" role="status">
          {refresh.isPending
            ? 'Payment received. Reading your subscription from Stripe…'
            : data.subscribed
              ? `Thank you: the ${current.name} plan is ${STATUS_TEXT[data.status]?.toLowerCase() ?? data.status}.`
              : 'Payment received. Stripe is still confirming it; this page shows the plan once it has.'}
          <button type="button" className="link dismiss" onClick={() => navigate(`/a/${accountId}/billing`, { replace: true })}>
            Dismiss
          </button>
        </div>
      ) : null}
      {returned === 'canceled' ? (
        <div className="panel callout" role="status">
          Checkout was canceled; nothing was charged. Choose a plan whenever you are ready.
          <button type="button" className="link dismiss" onClick={() => navigate(`/a/${accountId}/billing`, { replace: true })}>
            Dismiss
          </button>
        </div>
      ) : null}
      <section className="panel" aria-labelledby="current-plan">
        <div className="plan-head">
          <div>
            <h2 id="current-plan">
              {current.name} <span className={`badge plan-status ${data.access}`}>{STATUS_TEXT[data.status] ?? data.status}</span>
            </h2>
            <p className="muted">
              {ACCESS_TEXT[data.access]}{' '}
              {data.currentPeriodEnd === null
                ? data.billingEnabled
                  ? ''
                  : 'Billing is off on this server: the plan has no end.'
                : data.cancelAtPeriodEnd
                  ? `Ends on ${date(data.currentPeriodEnd)}.`
                  : data.status === 'trialing'
                    ? `Trial until ${date(data.currentPeriodEnd)}.`
                    : data.access === 'full'
                      ? `Renews on ${date(data.currentPeriodEnd)}.`
                      : `Paid through ${date(data.currentPeriodEnd)}.`}
            </p>
          </div>
          {data.canManage && data.hasCustomer ? (
            <button type="button" onClick={() => portal.mutate({ accountId })} disabled={busy}>
              Manage billing
            </button>
          ) : null}
        </div>
        {data.notice === null ? null : (
          <p className="callout warn" role="alert">
            {data.notice}
          </p>
        )}
        <h3 className="usage-title">Usage</h3>
        <UsageBar label="Records" used={data.usage.records.used} limit={data.usage.records.limit} />
        <UsageBar label="Uploaded session messages" used={data.usage.sessionMessages.used} limit={data.usage.sessionMessages.limit} />
        <UsageBar
          label="Calls this month"
          used={data.usage.callsThisMonth.used}
          limit={data.usage.callsThisMonth.limit}
          note={`included, resets on ${date(data.callsResetOn)}`}
        />
        <UsageBar label="Members" used={data.usage.members.used} limit={data.usage.members.limit} />
        <h3 className="usage-title" id="call-rates">Call rates that apply</h3>
        <dl className="rates" aria-labelledby="call-rates">
          <div>
            <dt>Per key</dt>
            <dd>{number(current.keyCallsPerMinute)} calls a minute</dd>
          </div>
          <div>
            <dt>Per project</dt>
            <dd>{number(current.projectCallsPerMinute)} calls a minute, all its keys together</dd>
          </div>
          <div>
            <dt>Per month</dt>
            <dd>
              {current.callsPerMonth === null
                ? 'no monthly allowance'
                : `${number(current.callsPerMonth)} calls included; once they are used, remember and forget wait until ${date(data.callsResetOn)}, search and validate_memory keep working`}
            </dd>
          </div>
        </dl>
        <ErrorText error={portal.error ?? refresh.error} />
      </section>

      {data.billingEnabled ? (
        <section aria-labelledby="plans">
          <h2 id="plans">Plans</h2>
          <div className="plans">
            {data.plans.map((plan) => {
              const isCurrent = plan.id === current.id;
              return (
                <article key={plan.id} className={`panel plan${isCurrent ? ' current' : ''}`} aria-label={plan.name}>
                  <h3>{plan.name}</h3>
                  <p className="plan-price" data-testid={`price-${plan.id}`}>
                    {plan.price === null
                      ? plan.id === 'trial'
                        ? 'Free'
                        : 'Price unavailable right now'
                      : (priceText(plan.price) ?? 'Price set in Stripe')}
                  </p>
                  <p className="muted">{plan.summary}</p>
                  <ul>
                    <li>{limitText(plan.recordLimit, 'records')}</li>
                    <li>{limitText(plan.sessionMessageLimit, 'uploaded session messages')}</li>
                    <li>{limitText(plan.callsPerMonth, 'calls a month included')}</li>
                    <li>{number(plan.keyCallsPerMinute)} calls a minute per key</li>
                    <li>{limitText(plan.members, 'members')}</li>
                    <li>{plan.graceDays} days read-only after it ends</li>
                  </ul>
                  {isCurrent ? (
                    <p className="current-label">Your plan</p>
                  ) : isSold(plan.id) && plan.forSale && data.canManage && !data.subscribed ? (
                    <button type="button" className="primary" disabled={busy} onClick={() => isSold(plan.id) && checkout.mutate({ accountId, plan: plan.id })}>
                      {plan.checkoutTrialDays > 0 ? `Start ${plan.checkoutTrialDays}-day ${plan.name} trial` : `Choose ${plan.name}`}
                    </button>
                  ) : plan.forSale && data.subscribed && data.canManage ? (
                    <p className="muted">Change plans under Manage billing.</p>
                  ) : null}
                </article>
              );
            })}
          </div>
          {data.canManage ? null : <p className="muted">Only owners and admins can change the plan.</p>}
          <p className="muted small" data-testid="trial-rule">
            One trial per person, not one per organization: your trial starts with the first organization you
            create. Organizations you create later, and a plan&apos;s trial at Checkout, share the days left of it;
            once it is over they start without one.
          </p>
          <ErrorText error={checkout.error} />
          <p className="muted small">Payments, cards and invoices are handled by Stripe; MMW never sees card details.</p>
        </section>
      ) : null}
    </>
  );
}
