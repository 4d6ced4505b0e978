-- An admin downloading a research run's zip (everyone's nights under research ids) is an
-- export like the sleep CSV: recorded in the audit trail before the file is sent, and shown
-- to a participant who had logged a night by then ("Who looked at your data").
alter table admin_audit drop constraint if exists admin_audit_action_check;
alter table admin_audit add constraint admin_audit_action_check
  check (action in ('participant_viewed', 'users_exported', 'sleep_exported', 'research_downloaded', 'role_granted', 'role_revoked'));
