-- The tenant policy reads the session's tenant once per statement (docs/decisions/0062-tenant-read-once.md).
-- Written as `account_id = mmw_tenant() OR mmw_system()`, the two settings were read again for every
-- row a statement touched: a third of the cost of reading rows in recency order, the way search
-- reads its window and horizon. In scalar subqueries they are read once, before the first row, and
-- every row is compared with the values: the rows each statement may see are the same.
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN SELECT tablename FROM pg_policies WHERE schemaname = 'public' AND policyname = 'tenant_isolation' LOOP
    EXECUTE format(
      'ALTER POLICY tenant_isolation ON %I USING (account_id = (SELECT mmw_tenant()) OR (SELECT mmw_system())) '
      'WITH CHECK (account_id = (SELECT mmw_tenant()) OR (SELECT mmw_system()))', t);
  END LOOP;
END
$$;
