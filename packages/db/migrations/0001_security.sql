-- The application runs every query as mmw_app: a role that owns no table and cannot bypass
-- row-level security, whatever user DATABASE_URL names. The tenant of a transaction is set with
-- set_config('mmw.account_id', ..., true), so a pooled connection never carries it over.
DO $$ BEGIN
  CREATE ROLE mmw_app NOLOGIN NOBYPASSRLS;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;--> statement-breakpoint
GRANT mmw_app TO CURRENT_USER;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO mmw_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO mmw_app;--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO mmw_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO mmw_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO mmw_app;--> statement-breakpoint
-- The audit log is append-only for the application.
REVOKE UPDATE, DELETE, TRUNCATE ON audit_events FROM mmw_app;--> statement-breakpoint
CREATE OR REPLACE FUNCTION mmw_tenant() RETURNS uuid LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('mmw.account_id', true), '')::uuid $$;--> statement-breakpoint
-- Operator commands and system jobs (billing sweeps) act across tenants, and say so explicitly.
CREATE OR REPLACE FUNCTION mmw_system() RETURNS boolean LANGUAGE sql STABLE
  AS $$ SELECT coalesce(current_setting('mmw.system', true), '') = 'on' $$;--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['accounts', 'memberships', 'projects', 'api_keys', 'subscriptions', 'workspaces',
    'records', 'record_relations', 'audit_events', 'idempotency_entries', 'rate_limit_windows']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (account_id = mmw_tenant() OR mmw_system()) '
      'WITH CHECK (account_id = mmw_tenant() OR mmw_system())', t);
  END LOOP;
END $$;--> statement-breakpoint
-- Key authentication: whoever presents a key's hash may read that one key row, and no other.
CREATE POLICY key_by_hash ON api_keys FOR SELECT
  USING (key_hash = current_setting('mmw.key_hash', true));
