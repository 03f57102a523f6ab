CREATE TABLE "import_mappings" (
	"account_id" uuid NOT NULL,
	"source" text NOT NULL,
	"original_id" uuid NOT NULL,
	"new_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "import_mappings_account_id_source_original_id_pk" PRIMARY KEY("account_id","source","original_id")
);
--> statement-breakpoint
ALTER TABLE "import_mappings" ADD CONSTRAINT "import_mappings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Row-level security, as in 0001_security.sql: a mapping row is its (importing) account's.
ALTER TABLE "import_mappings" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "import_mappings" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON "import_mappings" USING (account_id = mmw_tenant() OR mmw_system())
  WITH CHECK (account_id = mmw_tenant() OR mmw_system());
