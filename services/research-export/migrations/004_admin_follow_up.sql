-- "Not logged for 3+ days" (the follow-up filter, docs/admin.md) sorted by last log or by
-- compliance: one range of an index of the followed-up users only. Along the indexes of
-- migration 003 the filter read every user before the first match who is not to be
-- followed up, and those sorts put many of them first: whoever has completed the study has
-- the oldest last night, whoever logs every night the best compliance (at 100,000 users,
-- 20,000 rows read for a page of 50, 15-22 ms; bench/growth.bench.ts). The other sorts are
-- not tied to the filter: a page reads about 50 ÷ the share followed up.
create index admin_user_order_follow_up_last_log_asc on admin_user_order ((coalesce(last_night_date, 'infinity'::date)), user_id) where follow_up;
create index admin_user_order_follow_up_last_log_desc on admin_user_order ((coalesce(last_night_date, '-infinity'::date)), user_id) where follow_up;
create index admin_user_order_follow_up_compliance_asc on admin_user_order ((coalesce(compliance, 2)), user_id) where follow_up;
create index admin_user_order_follow_up_compliance_desc on admin_user_order ((coalesce(compliance, -1)), user_id) where follow_up;
