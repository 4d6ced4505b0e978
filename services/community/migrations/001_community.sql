-- Read models of the community service (the events table is the event store's own;
-- user_directory is kept by libs/service-kit from identity's events).
-- No foreign keys between them: each projection can be rebuilt on its own, and deleting
-- a thread removes its members and messages in the same transaction (users/deletion.ts).

create table message_threads (
  id uuid primary key,
  name text not null,
  is_direct boolean not null default false,
  -- null for the welcome thread, and once its creator has deleted her account
  created_by uuid,
  pinned boolean not null default false,
  created_at timestamptz not null
);

create table thread_members (
  thread_id uuid not null,
  user_id uuid not null,
  joined_at timestamptz not null,
  primary key (thread_id, user_id)
);
create index thread_members_user on thread_members (user_id);

create table messages (
  id uuid primary key,
  thread_id uuid not null,
  sender_id uuid not null,
  body text not null,
  created_at timestamptz not null
);
create index messages_thread_time on messages (thread_id, created_at, id);
create index messages_sender on messages (sender_id);
create index messages_time on messages (created_at);

-- Participants of the sleep study (from study.consent.given), for "Sleep Studies Shared".
create table study_participants (
  user_id uuid primary key,
  study_start_date date not null
);
