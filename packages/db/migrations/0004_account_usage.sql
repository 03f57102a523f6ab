CREATE TABLE "account_usage" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"record_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_usage" ADD CONSTRAINT "account_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;