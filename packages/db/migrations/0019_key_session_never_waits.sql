-- mmw_key_session() never waits for a lock: every tool call of a process reads its key's session on
-- one connection, one statement after another, so a statement that waited for the key's row (locked
-- by a transaction revoking the key, or updating it) would hold up every call behind it. The write
-- of last_used_at skips a row another transaction holds (FOR NO KEY UPDATE SKIP LOCKED: the record
-- inserts' foreign-key locks, FOR KEY SHARE, do not stop it) and is written by a later call. The
-- rest is 0018's: same columns, same rules, same row-level security.
CREATE OR REPLACE FUNCTION mmw_key_session(p_key_hash text)
RETURNS TABLE (
  key_id uuid,
  account_id uuid,
  project_id uuid,
  user_id uuid,
  key_hash text,
  revoked_at timestamptz,
  member_role text,
  project_active boolean,
  subscription_status text,
  subscription_plan text,
  subscription_period_end timestamptz,
  subscription_updated_at timestamptz
)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
#variable_conflict use_column
DECLARE
  k record;
  s record;
BEGIN
  PERFORM set_config('mmw.key_hash', p_key_hash, true);
  SELECT a.id, a.account_id, a.project_id, a.user_id, a.key_hash, a.revoked_at, a.last_used_at INTO k
    FROM api_keys a WHERE a.key_hash = p_key_hash;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  PERFORM set_config('mmw.account_id', k.account_id::text, true);
  SELECT (SELECT m.role FROM memberships m
           WHERE m.account_id = k.account_id AND m.user_id = k.user_id AND m.removed_at IS NULL) AS role,
         EXISTS (SELECT 1 FROM projects p
                  WHERE p.id = k.project_id AND p.account_id = k.account_id AND p.active AND p.deleted_at IS NULL)
           AS project_active,
         sub.status, sub.plan, sub.current_period_end, sub.updated_at
    INTO s
    FROM (SELECT 1) AS one
    LEFT JOIN subscriptions sub ON sub.account_id = k.account_id;
  IF k.revoked_at IS NULL AND s.role IS NOT NULL
     AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute') THEN
    UPDATE api_keys a SET last_used_at = now()
     WHERE a.id IN (SELECT b.id FROM api_keys b
                     WHERE b.id = k.id AND b.account_id = k.account_id
                       AND (b.last_used_at IS NULL OR b.last_used_at < now() - interval '1 minute')
                       FOR NO KEY UPDATE SKIP LOCKED);
  END IF;
  RETURN QUERY SELECT k.id, k.account_id, k.project_id, k.user_id, k.key_hash, k.revoked_at, s.role,
                      s.project_active, s.status, s.plan, s.current_period_end, s.updated_at;
END $$;
