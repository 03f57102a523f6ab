export * from './config.ts';
export * from './errors.ts';
export { databaseFailure } from './database-failure.ts';
export type { Caller } from './caller.ts';
export * from './keys/api-key.ts';
export * from './keys/authenticate-key.ts';
export * from './keys/caller-authenticator.ts';
export * from './accounts/provision.ts';
export * from './audit/record-audit.ts';
export * from './memory/record-input.ts';
export {
  guardRecord,
  createGuardPool,
  redactSecrets,
  type GuardedRecord,
  type GuardPool,
  type RedactionResult,
} from './guard/index.ts';
export * from './memory/record-view.ts';
export * from './memory/status.ts';
export * from './memory/query-words.ts';
export { rememberRecord, type RememberWrite } from './memory/remember.ts';
export * from './memory/search.ts';
export * from './memory/forget.ts';
export * from './memory/validate-memory.ts';
export * from './memory/memory-service.ts';
export * from './accounts/local-setup.ts';
export * from './billing/subscription-status.ts';
export * from './billing/set-subscription.ts';
export * from './memory/memory-session.ts';
export * from './billing/plans.ts';
export * from './billing/entitlement.ts';
export * from './billing/call-allowance.ts';
export * from './billing/person-trial.ts';
export * from './billing/plan-prices.ts';
export * from './billing/reconcile-accounts.ts';
export * from './limits/call-limits.ts';
export * from './limits/auth-failures.ts';
export * from './memory/idempotency.ts';
export * from './auth/credentials.ts';
export * from './auth/password.ts';
export * from './auth/sessions.ts';
export * from './auth/sign-up.ts';
export * from './auth/sign-in.ts';
export * from './auth/change-password.ts';
export * from './auth/login-throttle.ts';
export * from './auth/email-verification.ts';
export * from './auth/password-reset.ts';
export * from './auth/password-reuse.ts';
export * from './accounts/first-memory.ts';
export * from './accounts/create-account.ts';
export * from './orgs/member.ts';
export * from './orgs/organizations.ts';
export * from './orgs/members.ts';
export * from './orgs/invitations.ts';
export * from './projects/projects.ts';
export * from './keys/manage-keys.ts';
export * from './keys/key-requests.ts';
export * from './workspaces/workspace-records.ts';
export * from './workspaces/browse-records.ts';
export * from './workspaces/record-page.ts';
export * from './visibility/visibility-rules.ts';
export * from './handover/handover.ts';
export * from './audit/read-audit.ts';
export * from './runtime.ts';
export type { QueryExpander } from './archivist/query-expansion.ts';
export { createBuiltInExpander } from './archivist/query-expansion.ts';
export { queryTerms, type QueryTerm } from './memory/query-terms.ts';
export * from './jobs/job-queue.ts';
export * from './billing/billing.ts';
export * from './billing/billing-overview.ts';
export type {
  BillingGateway,
  RemoteSubscription,
  WebhookEvent,
  CheckoutRequest,
} from './billing/billing-gateway.ts';
export { STRIPE_EVENT_TYPES, type WebhookOutcome } from './billing/stripe-webhook.ts';
export {
  STRIPE_EVENT_QUEUE,
  BILLING_SYNC_QUEUE,
  BILLING_RECONCILE_QUEUE,
  nextReconciliationAt,
} from './billing/billing-jobs.ts';
export { currentSubscription, accessEndsAt } from './billing/remote-state.ts';
export { createCallCounter, type CallCounter } from './usage/call-count.ts';
export * from './open-configured-database.ts';
export * from './erasure/purge-record.ts';
export * from './erasure/export-records.ts';
export * from './portability/index.ts';
export * from './memory/guard-input.ts';
export * from './erasure/delete-account.ts';
export * from './auth/two-factor/enrolment.ts';
export * from './auth/two-factor/second-factor-sign-in.ts';
export * from './auth/two-factor/secret-box.ts';
export { TOTP_PERIOD_SECONDS, TOTP_DIGITS } from './auth/two-factor/totp-code.ts';
export { CODE_ATTEMPTS, CODE_WINDOW_MINUTES } from './auth/two-factor/code-attempts.ts';
export * from './orgs/two-factor-requirement.ts';
export * from './sessions/index.ts';
export * from './metrics/metrics.ts';
export * from './metrics/metrics-server.ts';
export * from './lifecycle/graceful-shutdown.ts';
export * from './lifecycle/startup-failure.ts';
export * from './lifecycle/readiness-gate.ts';
export * from './oauth/index.ts';
