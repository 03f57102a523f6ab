CREATE TABLE "key_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"read_only" boolean DEFAULT false NOT NULL,
	"expires_in_days" integer,
	"requested_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"key_id" uuid,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "email_verifications" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "read_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "key_requests" ADD CONSTRAINT "key_requests_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_verifications" ADD CONSTRAINT "email_verifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "key_requests_user_idx" ON "key_requests" USING btree ("account_id","user_id");--> statement-breakpoint
CREATE INDEX "email_verifications_user_idx" ON "email_verifications" USING btree ("user_id");--> statement-breakpoint
-- Row-level security for the new tables, as in 0001 and 0007.
ALTER TABLE key_requests ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE key_requests FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON key_requests USING (account_id = mmw_tenant() OR mmw_system())
  WITH CHECK (account_id = mmw_tenant() OR mmw_system());--> statement-breakpoint
-- A verification link's token hash reads its one row; a signed-in user sees their own links.
ALTER TABLE email_verifications ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE email_verifications FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY verification_by_hash ON email_verifications
  USING (token_hash = current_setting('mmw.verification_hash', true))
  WITH CHECK (token_hash = current_setting('mmw.verification_hash', true));--> statement-breakpoint
CREATE POLICY verification_of_user ON email_verifications
  USING (user_id = mmw_user() OR mmw_system())
  WITH CHECK (user_id = mmw_user() OR mmw_system());--> statement-breakpoint
-- A key always acts for the person who issued it. Keys a dashboard admin issued "acting for" a
-- colleague are revoked (they could read the colleague's author-only records), and each becomes a
-- key request the colleague accepts to get a key of their own. Operator keys (created_by null) and
-- keys people issued for themselves are untouched. The audit log keeps the fact.
SELECT set_config('mmw.system', 'on', false);--> statement-breakpoint
INSERT INTO key_requests (account_id, project_id, user_id, name, read_only, requested_by)
  SELECT k.account_id, k.project_id, k.user_id, k.name, false, k.created_by
    FROM api_keys k
   WHERE k.created_by IS NOT NULL AND k.created_by <> k.user_id AND k.revoked_at IS NULL;--> statement-breakpoint
INSERT INTO audit_events (account_id, action, target_type, target_id, data)
  SELECT k.account_id, 'key.revoked', 'api_key', k.id::text,
         jsonb_build_object('prefix', k.prefix, 'via', 'migration', 'reason', 'acted for another member; a key request replaces it')
    FROM api_keys k
   WHERE k.created_by IS NOT NULL AND k.created_by <> k.user_id AND k.revoked_at IS NULL;--> statement-breakpoint
UPDATE api_keys SET revoked_at = now()
 WHERE created_by IS NOT NULL AND created_by <> user_id AND revoked_at IS NULL;--> statement-breakpoint
SELECT set_config('mmw.system', '', false);--> statement-breakpoint
-- mmw_key_session() as in 0019, and: a key past its expiry reads as revoked at its expiry time, and
-- the row says whether the key is read-only (search and validate_memory only).
DROP FUNCTION mmw_key_session(text);--> statement-breakpoint
CREATE FUNCTION mmw_key_session(p_key_hash text)
RETURNS TABLE (
  key_id uuid,
  account_id uuid,
  project_id uuid,
  user_id uuid,
  key_hash text,
  revoked_at timestamptz,
  member_role text,
  project_active boolean,
  subscription_status text,
  subscription_plan text,
  subscription_period_end timestamptz,
  subscription_updated_at timestamptz,
  read_only boolean
)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
#variable_conflict use_column
DECLARE
  k record;
  s record;
BEGIN
  PERFORM set_config('mmw.key_hash', p_key_hash, true);
  SELECT a.id, a.account_id, a.project_id, a.user_id, a.key_hash, a.last_used_at, a.read_only,
         CASE WHEN a.revoked_at IS NULL AND a.expires_at <= now() THEN a.expires_at ELSE a.revoked_at END AS revoked_at
    INTO k
    FROM api_keys a WHERE a.key_hash = p_key_hash;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM set_config('mmw.account_id', k.account_id::text, true);
  SELECT (SELECT m.role FROM memberships m
           WHERE m.account_id = k.account_id AND m.user_id = k.user_id AND m.removed_at IS NULL) AS role,
         EXISTS (SELECT 1 FROM projects p
                  WHERE p.id = k.project_id AND p.account_id = k.account_id AND p.active AND p.deleted_at IS NULL)
           AS project_active,
         sub.status, sub.plan, sub.current_period_end, sub.updated_at
    INTO s
    FROM (SELECT 1) AS one
    LEFT JOIN subscriptions sub ON sub.account_id = k.account_id;
  IF k.revoked_at IS NULL AND s.role IS NOT NULL
     AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') THEN
    UPDATE api_keys a SET last_used_at = now()
     WHERE a.id IN (SELECT b.id FROM api_keys b
                     WHERE b.id = k.id AND b.account_id = k.account_id
                       AND (b.last_used_at IS NULL OR b.last_used_at < now() - interval '1 minute')
                       FOR NO KEY UPDATE SKIP LOCKED);
  END IF;
  RETURN QUERY SELECT k.id, k.account_id, k.project_id, k.user_id, k.key_hash, k.revoked_at, s.role,
                      s.project_active, s.status, s.plan, s.current_period_end, s.updated_at, k.read_only;
END $$;
