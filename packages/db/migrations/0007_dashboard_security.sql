-- Row-level security for the dashboard's tables, as in 0001_security.sql. The tables are created
-- after 0001's default privileges, so mmw_app already has its grants on them.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['invitations', 'visibility_rules', 'handovers']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (account_id = mmw_tenant() OR mmw_system()) '
      'WITH CHECK (account_id = mmw_tenant() OR mmw_system())', t);
  END LOOP;
END $$;--> statement-breakpoint
-- The signed-in user of a transaction, set with set_config('mmw.user_id', ..., true) once the
-- session is validated: before a tenant is chosen, a user sees only their own sessions,
-- memberships and the accounts they belong to.
CREATE OR REPLACE FUNCTION mmw_user() RETURNS uuid LANGUAGE sql STABLE
  AS $$ SELECT nullif(current_setting('mmw.user_id', true), '')::uuid $$;--> statement-breakpoint
-- Sessions belong to a user, not to an account: whoever presents a session token's hash sees that
-- one row, and a signed-in user sees their own sessions (to end the others).
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE sessions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY session_by_hash ON sessions
  USING (id = current_setting('mmw.session_hash', true))
  WITH CHECK (id = current_setting('mmw.session_hash', true));--> statement-breakpoint
CREATE POLICY session_of_user ON sessions
  USING (user_id = mmw_user() OR mmw_system())
  WITH CHECK (user_id = mmw_user() OR mmw_system());--> statement-breakpoint
CREATE POLICY membership_of_user ON memberships FOR SELECT USING (user_id = mmw_user());--> statement-breakpoint
CREATE POLICY account_of_member ON accounts FOR SELECT USING (
  EXISTS (SELECT 1 FROM memberships m
          WHERE m.account_id = accounts.id AND m.user_id = mmw_user() AND m.removed_at IS NULL));--> statement-breakpoint
-- Accepting an invitation: whoever presents the link's token hash may read that one invitation.
CREATE POLICY invitation_by_hash ON invitations FOR SELECT
  USING (token_hash = current_setting('mmw.invitation_hash', true));
