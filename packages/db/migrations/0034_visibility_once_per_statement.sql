-- The caller's side of record visibility (docs/visibility.md), read once per statement. A statement
-- that reads records calls each function once, in a scalar subquery, with the caller's ids, and
-- compares each row's author and workspace with the arrays they return
-- (packages/core/src/visibility/visible-records.ts). Written inline, these two lookups were planned
-- again in every statement that reads records, five to seven times per search.

-- Authors whose records the reader reads as their own: the reader, and those who handed over to them.
CREATE FUNCTION mmw_reading_authors(for_account uuid, for_user uuid) RETURNS uuid[]
  LANGUAGE plpgsql STABLE PARALLEL SAFE STRICT
  AS $$
BEGIN
  RETURN array(
    SELECT for_user
    UNION ALL
    SELECT h.from_user_id FROM handovers h WHERE h.account_id = for_account AND h.to_user_id = for_user);
END
$$;--> statement-breakpoint

-- The workspaces of the project whose rule lets the reader read every record: the workspace's own
-- rule, else the project's default, else "whole organization".
CREATE FUNCTION mmw_open_workspaces(for_account uuid, for_project uuid, for_user uuid) RETURNS uuid[]
  LANGUAGE plpgsql STABLE PARALLEL SAFE STRICT
  AS $$
BEGIN
  RETURN array(
    SELECT w.id FROM workspaces w
      LEFT JOIN visibility_rules wr ON wr.workspace_id = w.id
      LEFT JOIN visibility_rules pr ON pr.project_id = w.project_id AND pr.workspace_id IS NULL
     WHERE w.account_id = for_account AND w.project_id = for_project AND (
       coalesce(wr.mode, pr.mode, 'organization') = 'organization'
       OR (coalesce(wr.mode, pr.mode) = 'listed' AND (
         for_user = any(CASE WHEN wr.id IS NOT NULL THEN wr.user_ids ELSE pr.user_ids END)
         OR (SELECT m.role FROM memberships m
              WHERE m.account_id = for_account AND m.user_id = for_user AND m.removed_at IS NULL)
            = any(CASE WHEN wr.id IS NOT NULL THEN wr.roles ELSE pr.roles END)))));
END
$$;
