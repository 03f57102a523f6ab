-- Row-level security for the billing tables, as in 0001_security.sql. Webhook events arrive before
-- their account is known, so they are written and processed as system work (withSystem).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['stripe_events', 'account_call_usage']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (account_id = mmw_tenant() OR mmw_system()) '
      'WITH CHECK (account_id = mmw_tenant() OR mmw_system())', t);
  END LOOP;
END $$;--> statement-breakpoint
-- The billing jobs' queues (pg-boss 10.4; see 0008_job_queue.sql). A Stripe event is retried with
-- backoff for about an hour before it lands in failed-jobs; the daily reconciliation heals it anyway.
SELECT pgboss.create_queue('stripe-event', '{"policy":"standard","retryLimit":10,"retryDelay":5,"retryBackoff":true,"expireInSeconds":120,"retentionMinutes":20160,"deadLetter":"failed-jobs"}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('billing-sync', '{"policy":"standard","retryLimit":10,"retryDelay":5,"retryBackoff":true,"expireInSeconds":120,"retentionMinutes":20160,"deadLetter":"failed-jobs"}'::json);--> statement-breakpoint
SELECT pgboss.create_queue('billing-reconcile', '{"policy":"standard","retryLimit":3,"retryDelay":60,"retryBackoff":true,"expireInSeconds":900,"retentionMinutes":20160,"deadLetter":"failed-jobs"}'::json);
