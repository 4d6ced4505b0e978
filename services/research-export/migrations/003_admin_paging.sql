-- The admin lists, keyset-paged (issue #16; docs/admin.md "Paging"): a page is one range of
-- an index, whatever its depth.

-- What orders the user list that no table of hers holds in one index for every user: her
-- last night's date (sort by last log) and her study compliance (sort by compliance). One
-- row per user of user_directory, derived from her rows there, in research_participants
-- and in admin_night_activity; every writer of those calls refreshUserOrder
-- (src/admin/user-order.ts) in its transaction.
--
-- Study compliance depends on her today (in her time zone): on each new day of the study
-- the nights due grow by one, and the order of two participants can change with no event.
-- So it is kept for a date, `compliance_on`, and computed again when her today is another
-- date (refreshDueCompliance, before every sort by compliance): once a day for each
-- participant still in the study, an indexed update. From the day her study's last night
-- is due (day 43) it can change no more without an event, and `compliance_on` is null, as
-- for someone not enrolled.
create table admin_user_order (
  user_id uuid primary key,
  timezone text not null,
  last_night_date date,
  -- nights logged ÷ nights due (src/admin/compliance.ts) on compliance_on; null: not
  -- enrolled, or no night due yet
  compliance float8,
  compliance_on date
);
-- Not enrolled (or nothing due) and never logged come last in both directions: a key for each.
create index admin_user_order_compliance_desc on admin_user_order ((coalesce(compliance, -1)), user_id);
create index admin_user_order_compliance_asc on admin_user_order ((coalesce(compliance, 2)), user_id);
create index admin_user_order_last_log_desc on admin_user_order ((coalesce(last_night_date, '-infinity'::date)), user_id);
create index admin_user_order_last_log_asc on admin_user_order ((coalesce(last_night_date, 'infinity'::date)), user_id);
-- The rows whose compliance is for another date than her today, time zone by time zone.
create index admin_user_order_due on admin_user_order (timezone, compliance_on) where compliance_on is not null;

-- Everyone already here; the compliance of the enrolled is computed at the first sort by it
-- (a date long past marks it due).
insert into admin_user_order (user_id, timezone, last_night_date, compliance, compliance_on)
select d.user_id, d.timezone, n.last_night_date, null, case when p.user_id is not null then date '1970-01-01' end
from user_directory d
left join research_participants p on p.user_id = d.user_id
left join admin_night_activity n on n.user_id = d.user_id;

-- Sort by name (first name, last name, case-insensitive; her id between namesakes).
create index user_directory_name on user_directory (lower(first_name), lower(last_name), user_id);

-- "Who looked at your data": the exports (no subject), newest first, without walking every read of a detail.
create index admin_audit_exports on admin_audit (at desc, id desc) where subject_id is null;
