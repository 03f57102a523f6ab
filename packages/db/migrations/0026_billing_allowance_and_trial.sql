ALTER TABLE "users" ADD COLUMN "trial_ends_at" timestamp with time zone;--> statement-breakpoint
-- A person who already had the Free trial keeps it: its end is the earliest end of the Free trials of
-- the organizations they own.
SELECT set_config('mmw.system', 'on', false);--> statement-breakpoint
UPDATE "users" u SET "trial_ends_at" = t.ends
  FROM (SELECT m.user_id, min(COALESCE(s.current_period_end, s.updated_at)) AS ends
          FROM memberships m JOIN subscriptions s ON s.account_id = m.account_id
         WHERE m.role = 'owner' AND s.plan = 'trial'
         GROUP BY m.user_id) t
 WHERE u.id = t.user_id AND u.trial_ends_at IS NULL;--> statement-breakpoint
SELECT set_config('mmw.system', '', false);--> statement-breakpoint
-- mmw_key_session() as in 0024, and the account's tool calls this month, so the plan's monthly call
-- allowance is decided with the key, in the same round trip.
DROP FUNCTION mmw_key_session(text);--> statement-breakpoint
CREATE FUNCTION mmw_key_session(p_key_hash text)
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
  subscription_updated_at timestamptz,
  read_only boolean,
  calls_this_month bigint
)
LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
#variable_conflict use_column
DECLARE
  k record;
  s record;
BEGIN
  PERFORM set_config('mmw.key_hash', p_key_hash, true);
  SELECT a.id, a.account_id, a.project_id, a.user_id, a.key_hash, a.last_used_at, a.read_only,
         CASE WHEN a.revoked_at IS NULL AND a.expires_at <= now() THEN a.expires_at ELSE a.revoked_at END AS revoked_at
    INTO k
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
         sub.status, sub.plan, sub.current_period_end, sub.updated_at,
         COALESCE((SELECT u.calls FROM account_call_usage u
                    WHERE u.account_id = k.account_id
                      AND u.month = date_trunc('month', now() AT TIME ZONE 'utc')::date), 0) AS calls
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
                      s.project_active, s.status, s.plan, s.current_period_end, s.updated_at, k.read_only,
                      s.calls;
END $$;
