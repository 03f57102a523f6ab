CREATE TABLE "account_deletions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"deleted_by" uuid NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "two_factor_credentials" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "require_two_factor" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "two_factor_enabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "second_factor_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "two_factor_credentials" ADD CONSTRAINT "two_factor_credentials_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes" USING btree ("user_id");--> statement-breakpoint
-- Two-factor credentials and recovery codes belong to a user, not to an account, as sessions do:
-- the signed-in user (mmw_user(), set once the session is validated) sees only their own.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['two_factor_credentials', 'recovery_codes']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY of_user ON %I USING (user_id = mmw_user() OR mmw_system()) '
      'WITH CHECK (user_id = mmw_user() OR mmw_system())', t);
  END LOOP;
END $$;--> statement-breakpoint
-- What is kept of a deleted account lives outside the tenant: the deleting transaction (as that
-- tenant) may add its own row; only system work reads them; nobody changes or removes one.
ALTER TABLE account_deletions ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE account_deletions FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY deletion_by_tenant ON account_deletions FOR INSERT
  WITH CHECK (account_id = mmw_tenant() OR mmw_system());--> statement-breakpoint
CREATE POLICY read_by_system ON account_deletions FOR SELECT USING (mmw_system());--> statement-breakpoint
REVOKE UPDATE, DELETE, TRUNCATE ON account_deletions FROM mmw_app;
