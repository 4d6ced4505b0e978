-- Read models of the journal service (the events table is the event store's own;
-- user_directory comes from libs/service-kit).

-- One row per entry. Several entries on one day are allowed (docs/decisions.md, Journal).
create table journal_entries (
  id uuid primary key,
  user_id uuid not null,
  -- her calendar day, in her timezone, when she wrote it
  date date not null,
  affirmation text not null,
  gratitude text not null,
  forgiveness text not null,
  created_at timestamptz not null
);
create index journal_entries_user_newest on journal_entries (user_id, date desc, created_at desc);
