-- Search's word index per workspace (docs/decisions/0046-words-by-workspace.md). A record's words
-- carry an 8-character tag of its workspace id, so the one GIN index over them holds a posting list
-- per workspace and word: a query word's postings, above all a prefix's, are its own workspace's,
-- not those of every tenant of the table. Two workspaces that share a tag only share candidate rows,
-- which the statement's workspace_id condition leaves out.
CREATE FUNCTION mmw_workspace_words(workspace uuid, words tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array_to_tsvector(array(SELECT left(replace(workspace::text, '-', ''), 8) || lexeme FROM unnest(words))) $$;--> statement-breakpoint
-- The same tag on every lexeme of a query (the text form of a tsquery quotes each lexeme).
CREATE FUNCTION mmw_workspace_query(workspace uuid, query tsquery) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT regexp_replace(query::text, '''([^'']+)''', '''' || left(replace(workspace::text, '-', ''), 8) || '\1''', 'g')::tsquery $$;--> statement-breakpoint
ALTER TABLE "records" DROP COLUMN "tsv";--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "tsv" "tsvector" GENERATED ALWAYS AS (mmw_workspace_words(workspace_id, to_tsvector('simple'::regconfig, regexp_replace(lower(content || ' ' || source || ' ' || coalesce(source_id, '')), '[^[:alnum:]]+', ' ', 'g')) || to_tsvector('english'::regconfig, regexp_replace(lower(content || ' ' || source || ' ' || coalesce(source_id, '')), '[^[:alnum:]]+', ' ', 'g')))) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "records" DROP COLUMN "key_tsv";--> statement-breakpoint
ALTER TABLE "records" ADD COLUMN "key_tsv" "tsvector" GENERATED ALWAYS AS (mmw_workspace_words(workspace_id, to_tsvector('simple'::regconfig, regexp_replace(lower(coalesce(fact_key, '')), '[^[:alnum:]]+', ' ', 'g')))) STORED NOT NULL;--> statement-breakpoint
-- Dropping the columns dropped their (workspace_id, words) indexes: the words alone now say the workspace.
CREATE INDEX "records_tsv_idx" ON "records" USING gin ("tsv") WHERE deleted_at IS NULL;--> statement-breakpoint
CREATE INDEX "records_key_tsv_idx" ON "records" USING gin ("key_tsv") WHERE deleted_at IS NULL AND fact_key IS NOT NULL;
