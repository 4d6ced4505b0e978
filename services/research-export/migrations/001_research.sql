-- Read models of the research-export service (the events table is the event store's own;
-- user_directory comes from libs/service-kit). Nothing here is ever exported with a user id:
-- research files name participants by research_id only (docs/research-export.md).

-- Participants enrolled in the study (projection of our ParticipantEnrolled events): her
-- research id, drawn at random when her consent first reached us and kept for good.
create table research_participants (
  user_id uuid primary key,
  research_id text not null unique,
  study_start_date date not null,
  consent_version text not null,
  consented_at timestamptz not null
);

-- Every logged night as study last published it (consumer of study.sleep_log.*). Numbers
-- are stored as published, even out of range, so the QA report can name them; her
-- free-text comments are not kept here at all.
create table research_nights (
  log_id uuid primary key,
  user_id uuid not null,
  date date not null,
  study_day integer not null,
  phase text not null,
  recommended_material text not null,
  sleepwear_material text,
  sleep_score double precision,
  total_sleep_minutes double precision,
  sleep_efficiency double precision,
  time_in_bed_minutes double precision,
  resting_hr double precision,
  restfulness double precision,
  rem_minutes double precision,
  deep_minutes double precision,
  latency_minutes double precision,
  timing_score double precision,
  avg_spo2 double precision,
  breathing_regularity text,
  lowest_hr double precision,
  avg_hrv double precision,
  sleep_quality_1_10 double precision,
  restfulness_self double precision,
  morning_mood text,
  dream_recall boolean,
  fabric_comfort text,
  emotional_calm double precision,
  heat_wave boolean,
  heat_wakeups double precision,
  recorded_at timestamptz not null,
  -- the last revision applied (null: never revised) and how many there were
  revised_at timestamptz,
  revisions integer not null default 0
);
create index research_nights_user_date on research_nights (user_id, date);

-- That she wrote in her journal on a day (consumer of journal.entry.written; never what).
create table research_journal_entries (
  entry_id uuid primary key,
  user_id uuid not null,
  date date not null
);
create index research_journal_entries_user on research_journal_entries (user_id);

-- Research runs (projection of the research_run:<id> streams).
create table research_runs (
  id uuid primary key,
  trigger text not null check (trigger in ('schedule', 'admin')),
  requested_by uuid,
  status text not null check (status in ('queued', 'running', 'finished', 'failed')),
  requested_at timestamptz not null,
  started_at timestamptz,
  finished_at timestamptz,
  duration_ms integer,
  failure text,
  file_name text,
  size_bytes bigint,
  summary jsonb
);
create index research_runs_requested on research_runs (requested_at desc);

-- The zips of finished runs (the last RESEARCH_RUNS_KEPT; older ones are pruned). Not a
-- read model: a file store, kept in the database so that every instance can serve them.
create table research_run_files (
  run_id uuid primary key,
  content bytea not null,
  created_at timestamptz not null default now()
);
