ALTER TABLE "accounts" ADD COLUMN "name_holder_user_id" uuid;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_name_holder_user_id_users_id_fk" FOREIGN KEY ("name_holder_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "accounts_organization_name_per_holder_idx" ON "accounts" USING btree ("name_holder_user_id",lower("name")) WHERE "accounts"."kind" = 'organization';--> statement-breakpoint
-- The hourly sweep of expired OAuth codes and tokens (pg-boss 10.4; see 0008_job_queue.sql and 0011).
SELECT pgboss.create_queue('oauth-sweep', '{"policy":"standard","retryLimit":3,"retryDelay":60,"retryBackoff":true,"expireInSeconds":900,"retentionMinutes":1440,"deadLetter":"failed-jobs"}'::json);
