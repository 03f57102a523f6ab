-- mmw_remember(): the whole write of one remember, in the caller's transaction, in one statement
-- (docs/architecture.md, "A remember call"; decision 0025). It runs as the application role under
-- row-level security, with the tenant set first. It never raises for a refusal: it answers an
-- outcome, and the caller rolls the transaction back for any outcome but 'stored'.
--   1. the tenant of the transaction;
--   2. the X-Idempotency-Key, when given, is claimed (a concurrent request with the same key waits on
--      the unique index; a key holding a live answer gives 'key_held');
--   3. the workspace is found, or created on the first write ('workspace_inactive' for a deleted one,
--      'workspace_forbidden' for a name another project of the account uses);
--   4. with a fact_key, versions saved at the same moment are written one at a time (a transaction
--      lock on the workspace and fact_key), so each marks the one before it;
--   5. the record is inserted, at its own moment;
--   6. with a fact_key, the earlier versions point to it (planned each time: a plan kept from an
--      empty table read the whole account, decision 0010);
--   7. the record is counted against the plan's limit ('record_limit' past it; the counter row is
--      locked until the commit, so concurrent writes with n places left store exactly n).
-- The archivist's job is enqueued by the caller, through pg-boss, in the same transaction.
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
  ws record;
  at timestamptz;
  counted int;
BEGIN
  -- 1
  PERFORM set_config('mmw.account_id', p_account::text, true);

  -- 2
  IF p_idempotency_key IS NOT NULL THEN
    INSERT INTO idempotency_entries AS e (account_id, project_id, key, fingerprint, record_id, expires_at)
    VALUES (p_account, p_project, p_idempotency_key, p_fingerprint, p_record_id, now() + interval '24 hours')
    ON CONFLICT (project_id, key) DO UPDATE SET
      fingerprint = excluded.fingerprint, record_id = excluded.record_id, response = null,
      expires_at = excluded.expires_at, created_at = now()
      WHERE e.expires_at < now();
    IF NOT FOUND THEN
      RETURN QUERY SELECT 'key_held', NULL::uuid, NULL::uuid, NULL::text, NULL::text, NULL::text,
        NULL::text, NULL::text, NULL::text, NULL::text, NULL::float8, NULL::text, NULL::uuid[],
        NULL::timestamptz;
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
      RETURN QUERY SELECT 'workspace_forbidden', NULL::uuid, NULL::uuid, NULL::text, NULL::text,
        NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::float8, NULL::text,
        NULL::uuid[], NULL::timestamptz;
      RETURN;
    END IF;
    INSERT INTO workspaces (account_id, project_id, name) VALUES (p_account, p_project, p_workspace)
    ON CONFLICT DO NOTHING;
    SELECT w.id, w.name, w.deleted_at INTO ws FROM workspaces w
     WHERE w.account_id = p_account AND w.project_id = p_project AND w.name = p_workspace;
  END IF;
  IF ws.id IS NULL OR ws.deleted_at IS NOT NULL THEN
    RETURN QUERY SELECT 'workspace_inactive', NULL::uuid, NULL::uuid, NULL::text, NULL::text,
      NULL::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::float8, NULL::text,
      NULL::uuid[], NULL::timestamptz;
    RETURN;
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
      RETURN QUERY SELECT 'record_limit', NULL::uuid, NULL::uuid, NULL::text, NULL::text, NULL::text,
        NULL::text, NULL::text, NULL::text, NULL::text, NULL::float8, NULL::text, NULL::uuid[],
        NULL::timestamptz;
      RETURN;
    END IF;
  END IF;

  RETURN QUERY SELECT 'stored', p_record_id, ws.id, ws.name::text, p_content, p_source, p_source_id,
    p_source_hash, p_source_revision, p_fact_key, p_confidence, p_scope, p_derived_from, at;
END;
$$;
