-- A research zip downloaded names its run in the audit trail: the admin's screen says which
-- file went out, and a participant's "Who looked at your data" lists the download only when
-- that run finished after her first night was recorded (an older run's zip has none of hers).
-- Null for a download recorded before this (its run was not kept).
alter table admin_audit add column if not exists run_id uuid;
alter table admin_audit add column if not exists run_file_name text;
alter table admin_audit add column if not exists run_finished_at timestamptz;
