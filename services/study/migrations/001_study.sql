-- Read models of the study service (the events table is the event store's own;
-- user_directory is kept by libs/service-kit). Every row carries user_id: a deleted
-- user's rows are removed by it (docs/data-protection.md).

-- One consent per participant (stream consent:<userId>); it starts her study.
create table consents (
  id uuid primary key,
  user_id uuid not null unique,
  consent_text text not null,
  consent_version text not null default '1.0',
  accepted_at timestamptz not null,
  ip_address text,
  timezone text not null,
  study_start_date date not null
);

-- One log per participant per night (stream sleep_log:<userId>:<date>).
create table sleep_logs (
  id uuid primary key,
  user_id uuid not null,
  date date not null,
  study_day integer not null,
  phase text not null check (phase in ('polyester', 'washout', 'linen', 'completed')),
  recommended_material text not null,
  sleepwear_material text,
  sleep_score integer,
  total_sleep_minutes integer,
  sleep_efficiency double precision,
  time_in_bed_minutes integer,
  resting_hr integer,
  restfulness integer,
  rem_minutes integer,
  deep_minutes integer,
  latency_minutes integer,
  timing_score integer,
  avg_spo2 double precision,
  breathing_regularity text,
  lowest_hr integer,
  avg_hrv double precision,
  sleep_quality_1_10 integer,
  restfulness_self integer,
  morning_mood text,
  dream_recall boolean,
  fabric_comfort text,
  emotional_calm integer,
  heat_wave boolean,
  heat_wakeups integer,
  comments text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (user_id, date)
);
