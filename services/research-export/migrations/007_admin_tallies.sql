-- The Admin Dashboard's four tiles without counting every user, night and entry on each
-- visit (docs/admin.md, "Statistics"; at 100,000 users the count took 82 ms). Triggers on
-- the tables the tiles are about keep what they need, in the transaction that changes
-- them, whichever code writes them (the consumers, a deletion, a rebuild's TRUNCATE).
--
-- admin_tallies: changes to the totals, a row for each change, never an
-- update of a shared row (two writers would queue on it, and a rebuild, which replays every
-- event in one transaction, would update one row millions of times: each update then walks
-- every earlier version of it, quadratic). A total is the sum of its rows; the service folds
-- them into one row per total and day every minute (compactAdminTallies).
--   users            rows of user_directory
--   sleep_logs       sum of admin_night_activity.nights
--   journal_entries  sum of admin_journal_activity.entries
--   active_users     by `day`: users whose last activity (admin_last_activity) is on that day (UTC)
create table admin_tallies (
  counter text not null check (counter in ('users', 'sleep_logs', 'journal_entries', 'active_users')),
  day date check ((counter = 'active_users') = (day is not null)),
  delta bigint not null
);

-- Her last night recorded or entry written, whichever is later. `at` is null only inside
-- admin_activity_moved, while her first is being counted (the row is her lock).
create table admin_last_activity (
  user_id uuid primary key,
  at timestamptz
);
create index admin_last_activity_at on admin_last_activity (at);

-- After her activity rows changed: her last activity again, and the days' tallies moved.
-- Its lookups are by key, and must stay index scans: PL/pgSQL keeps a statement's plan
-- for the session, and one made while the tables were small (a new database, the start of
-- a rebuild) is a sequential scan, which a statement adding many rows then ran for each
-- of them (10,000 users added after 10: 17 s instead of 0.5). Sequential scans are off
-- while it runs.
create function admin_activity_moved(her uuid) returns void language plpgsql set enable_seqscan = off as $$
declare
  was timestamptz;
  now_at timestamptz;
begin
  -- Both activity tables first (their locks): a rebuild's TRUNCATE of one of them then waits
  -- for this transaction, or this one for the rebuild, before her row below is locked; her
  -- row locked first, the rebuild's recount (which locks every row) and this read of the
  -- emptied table would wait for each other.
  perform (select 1 from admin_night_activity where user_id = her), (select 1 from admin_journal_activity where user_id = her);
  -- Her row, then what she did, in later statements: of two writers of one user (a night
  -- and an entry at once), the second waits here and then sees what the first committed.
  select at into was from admin_last_activity where user_id = her for update;
  if not found then
    insert into admin_last_activity (user_id, at) values (her, null) on conflict (user_id) do nothing;
    select at into was from admin_last_activity where user_id = her for update;
  end if;
  now_at := greatest(
    (select last_recorded_at from admin_night_activity where user_id = her),
    (select last_written_at from admin_journal_activity where user_id = her));
  if now_at is null then
    delete from admin_last_activity where user_id = her;
  elsif now_at is distinct from was then
    update admin_last_activity set at = now_at where user_id = her;
  end if;
  if (was at time zone 'UTC')::date is not distinct from (now_at at time zone 'UTC')::date then
    return;
  end if;
  if was is not null then
    insert into admin_tallies (counter, day, delta) values ('active_users', (was at time zone 'UTC')::date, -1);
  end if;
  if now_at is not null then
    insert into admin_tallies (counter, day, delta) values ('active_users', (now_at at time zone 'UTC')::date, 1);
  end if;
end $$;

-- Everyone's last activity counted again (this migration, and after a rebuild's TRUNCATE of
-- one of the activity tables: linear, as the rebuild is). The lock first: a writer moving
-- someone's last activity (it holds her row) and a fold of the tallies (compactAdminTallies)
-- finish before, and wait until after; the rows of either, made before the recount's
-- snapshot and kept after it, would count twice.
create function admin_activity_recounted() returns void language plpgsql as $$
begin
  lock table admin_last_activity in exclusive mode;
  delete from admin_tallies where counter = 'active_users';
  delete from admin_last_activity;
  insert into admin_last_activity (user_id, at)
  select user_id, max(at)
  from (
    select user_id, last_recorded_at as at from admin_night_activity
    union all
    select user_id, last_written_at from admin_journal_activity
  ) times
  where at is not null
  group by user_id;
  insert into admin_tallies (counter, day, delta)
  select 'active_users', (at at time zone 'UTC')::date, count(*) from admin_last_activity group by (at at time zone 'UTC')::date;
end $$;

-- A TRUNCATE of a table takes its total back to 0.
create function admin_tally_cleared(cleared text) returns void language sql as $$
  insert into admin_tallies (counter, delta)
  select cleared, -sum(delta) from admin_tallies where counter = cleared having sum(delta) <> 0
$$;

-- Row triggers: a tally is a row inserted, so a statement of many rows (a seed, a
-- migration) adds as many rows, and the next fold sums them.
create function admin_directory_tallied() returns trigger language plpgsql as $$
begin
  if tg_op = 'TRUNCATE' then
    perform admin_tally_cleared('users');
  else
    insert into admin_tallies (counter, delta) values ('users', case tg_op when 'INSERT' then 1 else -1 end);
  end if;
  return null;
end $$;

-- admin_night_activity and admin_journal_activity: tg_argv names the total and the column
-- of her count in the table ('sleep_logs', 'nights' and 'journal_entries', 'entries').
create function admin_activity_tallied() returns trigger language plpgsql as $$
declare
  delta bigint;
begin
  if tg_op = 'TRUNCATE' then
    perform admin_tally_cleared(tg_argv[0]);
    perform admin_activity_recounted();
    return null;
  end if;
  delta := coalesce((to_jsonb(new) ->> tg_argv[1])::bigint, 0) - coalesce((to_jsonb(old) ->> tg_argv[1])::bigint, 0);
  if delta <> 0 then
    insert into admin_tallies (counter, delta) values (tg_argv[0], delta);
  end if;
  if tg_op <> 'DELETE' then
    perform admin_activity_moved(new.user_id);
  end if;
  if tg_op = 'DELETE' or (tg_op = 'UPDATE' and new.user_id <> old.user_id) then
    perform admin_activity_moved(old.user_id);
  end if;
  return null;
end $$;

-- Created before the totals are counted below: they hold off other writers of these tables
-- until this migration commits. An update that changes neither the count nor the time
-- does not call the function.
create trigger admin_directory_tallied after insert or delete on user_directory
  for each row execute function admin_directory_tallied();
create trigger admin_directory_truncated after truncate on user_directory
  for each statement execute function admin_directory_tallied();

create trigger admin_night_activity_tallied after insert or delete on admin_night_activity
  for each row execute function admin_activity_tallied('sleep_logs', 'nights');
create trigger admin_night_activity_updated after update on admin_night_activity
  for each row when (old.nights is distinct from new.nights or old.last_recorded_at is distinct from new.last_recorded_at
    or old.user_id <> new.user_id)
  execute function admin_activity_tallied('sleep_logs', 'nights');
create trigger admin_night_activity_truncated after truncate on admin_night_activity
  for each statement execute function admin_activity_tallied('sleep_logs', 'nights');

create trigger admin_journal_activity_tallied after insert or delete on admin_journal_activity
  for each row execute function admin_activity_tallied('journal_entries', 'entries');
create trigger admin_journal_activity_updated after update on admin_journal_activity
  for each row when (old.entries is distinct from new.entries or old.last_written_at is distinct from new.last_written_at
    or old.user_id <> new.user_id)
  execute function admin_activity_tallied('journal_entries', 'entries');
create trigger admin_journal_activity_truncated after truncate on admin_journal_activity
  for each statement execute function admin_activity_tallied('journal_entries', 'entries');

-- What was there before.
insert into admin_tallies (counter, delta)
select 'users', count(*) from user_directory
union all
select 'sleep_logs', coalesce(sum(nights), 0) from admin_night_activity
union all
select 'journal_entries', coalesce(sum(entries), 0) from admin_journal_activity;
select admin_activity_recounted();
