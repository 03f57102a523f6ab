CREATE TABLE "archivist_pending" (
	"record_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "archivist_pending" ADD CONSTRAINT "archivist_pending_record_id_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE archivist_pending ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE archivist_pending FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON archivist_pending USING (account_id = mmw_tenant() OR mmw_system())
  WITH CHECK (account_id = mmw_tenant() OR mmw_system());--> statement-breakpoint
-- mmw_remember() is now the whole write of a remember, one statement outside any transaction
-- (docs/architecture.md, "A remember call"; decision 0060): it no longer leaves a refusal to a
-- rollback by the caller (a refused call undoes its own writes), and a stored record gets a row of
-- archivist_pending, which the worker's intake turns into the archivist's job, instead of a job
-- enqueued by the caller in a transaction of its own.
CREATE OR REPLACE FUNCTION mmw_remember(
  p_account uuid, p_project uuid, p_workspace text, p_author uuid, p_key_id uuid, p_record_id uuid,
  p_content text, p_source text, p_source_id text, p_source_hash text, p_source_revision text,
  p_fact_key text, p_confidence float8, p_scope text, p_derived_from uuid[],
  p_idempotency_key text, p_fingerprint text, p_count boolean, p_record_limit int
)
RETURNS TABLE (
  outcome text,
  id uuid,
  workspace_id uuid,
  workspace text,
  content text,
  source text,
  source_id text,
  source_hash text,
  source_revision text,
  fact_key text,
  confidence float8,
  scope text,
  derived_from uuid[],
  created_at timestamptz
)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
#variable_conflict use_column
DECLARE
  earlier record;
  ws record;
  at timestamptz;
  counted int;
  refused text;
BEGIN
  -- 1
  PERFORM set_config('mmw.account_id', p_account::text, true);

  -- Every write below is undone when the call is refused (the block's exception handler rolls
  -- it back), so the statement commits a stored record or nothing.
  BEGIN
    -- 2
    IF p_idempotency_key IS NOT NULL THEN
      INSERT INTO idempotency_entries AS e (account_id, project_id, key, fingerprint, record_id, expires_at)
      VALUES (p_account, p_project, p_idempotency_key, p_fingerprint, p_record_id, now() + interval '24 hours')
      ON CONFLICT (project_id, key) DO UPDATE SET
        fingerprint = excluded.fingerprint, record_id = excluded.record_id, response = null,
        expires_at = excluded.expires_at, created_at = now()
        WHERE e.expires_at < now();
      IF NOT FOUND THEN
        -- the key holds a live answer (committed, or committed while this waited on its index entry)
        SELECT e.fingerprint, e.record_id INTO earlier FROM idempotency_entries e
         WHERE e.project_id = p_project AND e.key = p_idempotency_key;
        IF earlier.fingerprint IS DISTINCT FROM p_fingerprint THEN
          refused := 'key_conflict';
          RAISE SQLSTATE 'MMW01';
        END IF;
        RETURN QUERY SELECT 'replayed', r.id, r.workspace_id, w.name::text, r.content, r.source, r.source_id,
          r.source_hash, r.source_revision, r.fact_key, r.confidence, r.scope, r.derived_from, r.created_at
          FROM records r JOIN workspaces w ON w.id = r.workspace_id AND w.account_id = r.account_id
         WHERE r.account_id = p_account AND r.id = earlier.record_id;
        IF NOT FOUND THEN
          refused := 'key_expired';
          RAISE SQLSTATE 'MMW01';
        END IF;
        RETURN;
      END IF;
    END IF;

    -- 3
    SELECT w.id, w.name, w.deleted_at INTO ws FROM workspaces w
     WHERE w.account_id = p_account AND w.project_id = p_project AND w.name = p_workspace;
    IF NOT FOUND THEN
      IF p_workspace <> 'default' AND EXISTS (
        SELECT FROM workspaces w WHERE w.account_id = p_account AND w.project_id <> p_project
           AND w.name = p_workspace AND w.deleted_at IS NULL) THEN
        refused := 'workspace_forbidden';
        RAISE SQLSTATE 'MMW01';
      END IF;
      INSERT INTO workspaces (account_id, project_id, name) VALUES (p_account, p_project, p_workspace)
      ON CONFLICT DO NOTHING;
      SELECT w.id, w.name, w.deleted_at INTO ws FROM workspaces w
       WHERE w.account_id = p_account AND w.project_id = p_project AND w.name = p_workspace;
    END IF;
    IF ws.id IS NULL OR ws.deleted_at IS NOT NULL THEN
      refused := 'workspace_inactive';
      RAISE SQLSTATE 'MMW01';
    END IF;

    -- 4
    IF p_fact_key IS NOT NULL THEN
      PERFORM pg_advisory_xact_lock(hashtextextended(
        concat_ws(':', 'fact_key', p_account::text, p_project::text, p_workspace, p_fact_key), 0));
    END IF;

    -- 5
    at := clock_timestamp();
    INSERT INTO records (id, account_id, project_id, workspace_id, author_user_id, key_id, content, source,
                         source_id, source_hash, source_revision, fact_key, confidence, scope, derived_from,
                         created_at, updated_at)
    VALUES (p_record_id, p_account, p_project, ws.id, p_author, p_key_id, p_content, p_source, p_source_id,
            p_source_hash, p_source_revision, p_fact_key, p_confidence, p_scope, p_derived_from, at, at);

    -- 6 (earlier versions keep their updated_at, so the newest ranks first)
    IF p_fact_key IS NOT NULL THEN
      EXECUTE 'UPDATE records SET superseded_by = $1
                WHERE account_id = $2 AND workspace_id = $3 AND fact_key = $4 AND id <> $1
                  AND superseded_by IS NULL AND deleted_at IS NULL'
        USING p_record_id, p_account, ws.id, p_fact_key;
    END IF;

    -- 7
    IF p_count THEN
      INSERT INTO account_usage AS u (account_id, record_count) VALUES (p_account, 1)
      ON CONFLICT (account_id) DO UPDATE SET record_count = u.record_count + 1
        WHERE p_record_limit IS NULL OR u.record_count + 1 <= p_record_limit
      RETURNING u.record_count INTO counted;
      IF counted IS NULL OR (p_record_limit IS NOT NULL AND counted > p_record_limit) THEN
        refused := 'record_limit';
        RAISE SQLSTATE 'MMW01';
      END IF;
    END IF;

    -- 8 (the worker's intake enqueues the archivist's job for it)
    INSERT INTO archivist_pending (record_id, account_id) VALUES (p_record_id, p_account);
  EXCEPTION WHEN SQLSTATE 'MMW01' THEN
    RETURN QUERY SELECT refused, NULL::uuid, NULL::uuid, NULL::text, NULL::text, NULL::text,
          NULL::text, NULL::text, NULL::text, NULL::text, NULL::float8, NULL::text, NULL::uuid[],
          NULL::timestamptz;
    RETURN;
  END;

  RETURN QUERY SELECT 'stored', p_record_id, ws.id, ws.name::text, p_content, p_source, p_source_id,
    p_source_hash, p_source_revision, p_fact_key, p_confidence, p_scope, p_derived_from, at;
END;
$$;
