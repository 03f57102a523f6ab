-- A lexeme may hold 2,047 bytes; with the workspace's 8-character tag (migration 0032) a word of more
-- than 2,039 bytes (682 CJK characters) no longer fit, and remembering a record that held one failed.
-- Such a word is left out of the index, as PostgreSQL leaves out a word over its own limit.
CREATE OR REPLACE FUNCTION mmw_workspace_words(workspace uuid, words tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT array_to_tsvector(array(SELECT left(replace(workspace::text, '-', ''), 8) || lexeme FROM unnest(words) WHERE octet_length(lexeme) <= 2039)) $$;
