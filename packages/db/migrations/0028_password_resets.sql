CREATE TABLE "password_resets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "password_resets" USING btree ("user_id");--> statement-breakpoint
-- A reset link's token hash reads its one row; a signed-in user (or the system) sees their own links.
ALTER TABLE password_resets ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE password_resets FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY reset_by_hash ON password_resets
  USING (token_hash = current_setting('mmw.reset_hash', true))
  WITH CHECK (token_hash = current_setting('mmw.reset_hash', true));--> statement-breakpoint
CREATE POLICY reset_of_user ON password_resets
  USING (user_id = mmw_user() OR mmw_system())
  WITH CHECK (user_id = mmw_user() OR mmw_system());
