-- Row-level security on users (issue 24). A person belongs to many accounts, so the table has no
-- tenant column; what a transaction may see of it is still decided by what it was opened for:
-- the signed-in user sees and changes their own row (mmw.user_id); a tenant's transaction reads
-- its members' rows, removed ones included (authors, audit actors, key holders); a dashboard
-- session's first step reads the user of the presented session hash; sign-in, sign-up and a
-- password-reset request, which know only an email, read that one address's row (mmw.user_email)
-- and sign-up inserts it. System work (operator commands, jobs) sees every row. Anything else
-- sees nothing.
ALTER TABLE users ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE users FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY own_user ON users
  USING (id = mmw_user() OR mmw_system())
  WITH CHECK (id = mmw_user() OR mmw_system());--> statement-breakpoint
CREATE POLICY user_by_email ON users FOR SELECT
  USING (email = current_setting('mmw.user_email', true));--> statement-breakpoint
CREATE POLICY user_signing_up ON users FOR INSERT
  WITH CHECK (email = current_setting('mmw.user_email', true));--> statement-breakpoint
CREATE POLICY user_of_session ON users FOR SELECT
  USING (EXISTS (SELECT 1 FROM sessions s
                 WHERE s.user_id = users.id AND s.id = current_setting('mmw.session_hash', true)));--> statement-breakpoint
CREATE POLICY member_of_tenant ON users FOR SELECT
  USING (EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = users.id AND m.account_id = mmw_tenant()));
