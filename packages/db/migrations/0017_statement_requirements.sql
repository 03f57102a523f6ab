-- A statement that must find something, or its transaction fails: mmw_require(false, 'mmw:…')
-- raises SQLSTATE MW001 with that text. It lets a statement sent with the commit (the idempotency
-- entry, the record count) refuse the commit instead of answering rows nobody waits for; core
-- maps the text back to its own error. It decides nothing itself.
CREATE OR REPLACE FUNCTION mmw_require(ok boolean, failure text)
RETURNS boolean
LANGUAGE plpgsql VOLATILE SECURITY INVOKER AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = 'MW001', MESSAGE = failure;
  END IF;
  RETURN true;
END
$$;
