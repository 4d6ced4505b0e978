-- The admin lists, keyset-paged (issue #16; docs/admin.md "Paging"): a page is one range of
-- an index, whatever its depth.

-- What orders and filters the user list that no table of hers holds in one index for
-- every user: her last night's date (sort by last log), her study compliance (sort by
-- compliance), her study phase and whether she is to be followed up (not logged for 3+
-- days). One row per user of user_directory, derived from her rows there, in
-- research_participants and in admin_night_activity; every writer of those calls
-- refreshUserOrder (src/admin/user-order.ts) in its transaction.
--
-- Compliance, phase and follow-up depend on her today (in her time zone): on each new day
-- of the study the nights due grow by one, and the order of two participants can change
-- with no event. So they are kept for a date, `compliance_on`, and computed again when her
-- today is another date (refreshDueCompliance, before a page that sorts by compliance or
-- filters by phase or follow-up): once a day for each participant still in the study, an
-- indexed update. From the day her study's last night is due (day 43) they can change no
-- more without an event, and `compliance_on` is null, as for someone not enrolled.
create table admin_user_order (
  user_id uuid primary key,
  timezone text not null,
  last_night_date date,
  -- nights logged ÷ nights due (src/admin/compliance.ts) on compliance_on; null: not
  -- enrolled, or no night due yet
  compliance float8,
  -- not_enrolled, polyester, washout, linen or completed on compliance_on
  phase text not null default 'not_enrolled',
  -- still in the study and her last night (or the eve of her start) 3 or more days before compliance_on
  follow_up boolean not null default false,
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

-- The search (part of her name or e-mail, ilike '%...%'): trigram indexes find the matches
-- of three letters or more without reading every user (pg_trgm ships with PostgreSQL's
-- contrib, in the postgres image; a trusted extension, so the database's owner may create it).
create extension if not exists pg_trgm;
create index user_directory_search_name on user_directory using gin ((first_name || ' ' || last_name) gin_trgm_ops);
create index user_directory_search_email on user_directory using gin (email gin_trgm_ops);

-- "Who looked at your data": the exports (no subject), newest first, without walking every read of a detail.
create index admin_audit_exports on admin_audit (at desc, id desc) where subject_id is null;

-- The research runs (GET /api/admin/research/runs), newest first, keyset-paged on (requested_at, id).
create index research_runs_newest on research_runs (requested_at desc, id desc);
drop index if exists research_runs_requested;
