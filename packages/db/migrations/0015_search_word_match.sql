-- Row-level security holds back every condition of a query whose function is not LEAKPROOF until
-- the policy has passed the row, and such a condition cannot drive an index scan. The match of a
-- tsvector with a tsquery (`tsv @@ query`, ts_match_vq) is not marked LEAKPROOF, so under the
-- policies on records the word index could only be searched by workspace, then every row of the
-- workspace checked: seconds in a large workspace. ts_match_vq raises no error and has no side
-- effect that depends on the row's text (only on the query, which the caller writes), so it cannot
-- leak a row the policy would hide; marking it LEAKPROOF lets search use the word index under the
-- policies. Only a superuser may do so: elsewhere search keeps working, and what it looks for in
-- the word index costs more (see docs/decisions/search-plan.md).
DO $$
BEGIN
  IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    ALTER FUNCTION pg_catalog.ts_match_vq(tsvector, tsquery) LEAKPROOF;
  ELSE
    RAISE NOTICE 'ts_match_vq is not LEAKPROOF (needs a superuser): search reads the word index by workspace only';
  END IF;
END $$;
