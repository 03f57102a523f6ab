CREATE SEQUENCE "public"."stripe_sync_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "account_call_usage" (
	"account_id" uuid NOT NULL,
	"month" date NOT NULL,
	"calls" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "account_call_usage_account_id_month_pk" PRIMARY KEY("account_id","month")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"account_id" uuid,
	"customer_id" text,
	"subscription_id" text,
	"client_reference_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "cancel_at_period_end" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD COLUMN "stripe_sync_seq" bigint;--> statement-breakpoint
ALTER TABLE "account_call_usage" ADD CONSTRAINT "account_call_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_events" ADD CONSTRAINT "stripe_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stripe_events_customer_idx" ON "stripe_events" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "stripe_events_account_idx" ON "stripe_events" USING btree ("account_id");