-- The follow-up (the list's "Missed the last 2+ nights" filter and badge) now counts from her
-- last logged night that has ended: a night logged ahead (tonight's, tomorrow's) hid the
-- nights missed before it (docs/admin.md). Every participant still in the study is made due
-- for the next page that sorts or filters by it (refreshDueCompliance), which computes her
-- follow-up again the new way; the others' cannot change.
update admin_user_order set compliance_on = compliance_on - 1 where compliance_on is not null;
