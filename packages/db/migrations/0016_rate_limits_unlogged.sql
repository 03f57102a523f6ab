-- The call-limit windows change on every tool call (two upserts), and each commit waited for the
-- WAL to reach the disk. They are counters of the current minute: after a crash PostgreSQL empties
-- an unlogged table, which only resets the windows, and nothing else depends on them.
ALTER TABLE rate_limits SET UNLOGGED;
