#!/bin/sh
# Runs once, when the database is first created: the role the application logs in as. It owns
# nothing, cannot bypass row-level security, and is a member of mmw_app, the role every query runs as
# (created here so that the grant can be given before the migrations run).
set -eu
psql -v ON_ERROR_STOP=1 -U "$POSTGRES_USER" -d "$POSTGRES_DB" \
  -v app_password="$MMW_APP_PASSWORD" <<'SQL'
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'mmw_app') THEN CREATE ROLE mmw_app NOLOGIN NOBYPASSRLS; END IF;
END $$;
CREATE ROLE mmw_service LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
GRANT mmw_app TO mmw_service;
GRANT CONNECT ON DATABASE mmw TO mmw_service;
SQL
