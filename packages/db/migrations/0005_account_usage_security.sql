ALTER TABLE account_usage ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE account_usage FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON account_usage USING (account_id = mmw_tenant() OR mmw_system())
  WITH CHECK (account_id = mmw_tenant() OR mmw_system());--> statement-breakpoint
-- Counts of what already exists, for databases migrated before this table.
INSERT INTO account_usage (account_id, record_count)
  SELECT account_id, count(*) FROM records WHERE deleted_at IS NULL GROUP BY account_id
  ON CONFLICT (account_id) DO NOTHING;
