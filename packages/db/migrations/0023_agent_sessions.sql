CREATE TABLE "agent_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"uploader_user_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"external_id" text NOT NULL,
	"project_path" text,
	"message_count" integer DEFAULT 0 NOT NULL,
	"first_message_at" timestamp with time zone,
	"last_message_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"uploader_user_id" uuid NOT NULL,
	"message_key" text NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, regexp_replace(lower(content), '[^[:alnum:]]+', ' ', 'g')) || to_tsvector('english'::regconfig, regexp_replace(lower(content), '[^[:alnum:]]+', ' ', 'g'))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_upload_batches" (
	"account_id" uuid NOT NULL,
	"batch_id" text NOT NULL,
	"key_id" uuid,
	"stored" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "session_upload_batches_account_id_batch_id_pk" PRIMARY KEY("account_id","batch_id")
);
--> statement-breakpoint
ALTER TABLE "agent_sessions" ADD CONSTRAINT "agent_sessions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_sessions" ADD CONSTRAINT "agent_sessions_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agent_sessions" ADD CONSTRAINT "agent_sessions_uploader_user_id_users_id_fk" FOREIGN KEY ("uploader_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_messages" ADD CONSTRAINT "session_messages_session_id_agent_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."agent_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_upload_batches" ADD CONSTRAINT "session_upload_batches_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_upload_batches" ADD CONSTRAINT "session_upload_batches_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_sessions_external_idx" ON "agent_sessions" USING btree ("project_id","uploader_user_id","tool","external_id");--> statement-breakpoint
CREATE INDEX "agent_sessions_account_idx" ON "agent_sessions" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_messages_key_idx" ON "session_messages" USING btree ("session_id","message_key");--> statement-breakpoint
CREATE INDEX "session_messages_tsv_idx" ON "session_messages" USING gin ("project_id","uploader_user_id","tsv");--> statement-breakpoint
CREATE INDEX "session_messages_account_idx" ON "session_messages" USING btree ("account_id");--> statement-breakpoint
-- Row-level security for the uploaded sessions, as in 0001_security.sql: a row is its account's.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['agent_sessions', 'session_messages', 'session_upload_batches']
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format('ALTER TABLE %I FORCE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I USING (account_id = mmw_tenant() OR mmw_system()) '
      'WITH CHECK (account_id = mmw_tenant() OR mmw_system())', t);
  END LOOP;
END $$;
