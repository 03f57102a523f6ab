ALTER TABLE "records" drop column "tsv";--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, regexp_replace(lower(content || ' ' || source || ' ' || coalesce(source_id, '')), '[^[:alnum:]]+', ' ', 'g')) || to_tsvector('english'::regconfig, regexp_replace(lower(content || ' ' || source || ' ' || coalesce(source_id, '')), '[^[:alnum:]]+', ' ', 'g'))) STORED NOT NULL;--> statement-breakpoint
-- Dropping the column dropped its index: the same index over the new words.
CREATE INDEX "records_ws_tsv_idx" ON "records" USING gin ("workspace_id","tsv") WHERE deleted_at IS NULL;
