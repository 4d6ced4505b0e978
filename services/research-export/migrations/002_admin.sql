-- The admin dashboard's read model (docs/admin.md). Her profile (names, e-mail, date of
-- birth, time zone, hormonal stage, role, when she joined) is user_directory's; her consent
-- is research_participants'; what she did is summed up here, one row per user, by the
-- consumers that keep research_nights and research_journal_entries, so the user list reads
-- no night and no journal entry (fast at 10,000 users). Names and e-mails never leave
-- through a research file: only the admin's own user list and its users-*.csv show them.

-- Kept by the nights consumer (study.sleep_log.recorded / .revised): her nights counted again
-- from her own rows on each event (a few dozen at most), so a redelivery or a revision that
-- arrives before its recording cannot count twice.
create table admin_night_activity (
  user_id uuid primary key,
  nights integer not null,
  -- nights of study days 1 to 42 (what study compliance counts)
  study_nights integer not null,
  -- her last two nights (by date) and whether each is of study days 1 to 42: enough to
  -- leave out of study compliance, without reading her nights, those she logged ahead of
  -- the due ones (tonight's and tomorrow's; study logs no later night)
  last_night_date date,
  last_night_in_study boolean,
  previous_night_date date,
  previous_night_in_study boolean,
  last_recorded_at timestamptz
);
create index admin_night_activity_recorded on admin_night_activity (last_recorded_at);

-- Kept by the journal consumer (journal.entry.written): how many entries and when she last wrote.
create table admin_journal_activity (
  user_id uuid primary key,
  entries integer not null,
  last_written_at timestamptz
);
create index admin_journal_activity_written on admin_journal_activity (last_written_at);

-- What the service held before this table existed. research_journal_entries has no time of
-- writing: the start of her last entry's day stands in for it until a rebuild (npm run
-- projections:rebuild -w services/research-export) replays the exact times.
insert into admin_night_activity
  (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
select user_id, count(*)::int, (count(*) filter (where study_day between 1 and 42))::int,
  max(date), (array_agg(study_day between 1 and 42 order by date desc))[1],
  (array_agg(date order by date desc))[2], (array_agg(study_day between 1 and 42 order by date desc))[2],
  max(recorded_at)
from research_nights group by user_id;
insert into admin_journal_activity (user_id, entries, last_written_at)
select user_id, count(*)::int, max(date)::timestamptz from research_journal_entries group by user_id;

-- The audit trail (projection of our AdminAuditRecorded events): every admin read of a
-- participant's detail, every export, every role change. Ids only: names are looked up in
-- user_directory when listed, so a deleted account's name goes with her directory row.
create table admin_audit (
  id uuid primary key,
  action text not null check (action in ('participant_viewed', 'users_exported', 'sleep_exported', 'role_granted', 'role_revoked')),
  at timestamptz not null,
  actor_id uuid,
  subject_id uuid
);
create index admin_audit_newest on admin_audit (at desc, id desc);
create index admin_audit_subject on admin_audit (subject_id, at desc, id desc) where subject_id is not null;
create index admin_audit_actor on admin_audit (actor_id) where actor_id is not null;

-- The user list's default order (newest first) and its name search and sort.
create index if not exists user_directory_registered on user_directory (registered_at desc, user_id desc);
