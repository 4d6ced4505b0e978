-- An admin deleting someone's account is in the audit trail too (identity.user.deleted by an
-- admin): by whom and when, about nobody, as her data and every entry about her are gone.
alter table admin_audit drop constraint if exists admin_audit_action_check;
alter table admin_audit add constraint admin_audit_action_check
  check (action in ('participant_viewed', 'users_exported', 'sleep_exported', 'research_downloaded', 'role_granted', 'role_revoked',
    'account_deleted'));
