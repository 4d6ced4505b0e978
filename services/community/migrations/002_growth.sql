-- Growth (issue #16): what the thread list and the Community Stats need is kept by the
-- projections, so neither reads the messages on a request (docs/community.md, "Growth").

-- Per thread, kept by the threads projection: its member count, its last message (the
-- card's preview: 101 characters), the last message of a member (not the study team:
-- "Discussions Today"), and its activity (last message, else creation: the list's order).
alter table message_threads
  add column member_count integer not null default 0,
  add column last_message_id uuid,
  add column last_message_preview text,
  add column last_message_at timestamptz,
  add column last_member_message_at timestamptz,
  add column activity_at timestamptz;

update message_threads t set member_count = (select count(*) from thread_members m where m.thread_id = t.id);
update message_threads t
  set last_message_id = last.id, last_message_preview = left(last.body, 101), last_message_at = last.created_at
  from (
    select distinct on (thread_id) thread_id, id, body, created_at from messages
    order by thread_id, created_at desc, id desc
  ) last
  where last.thread_id = t.id;
update message_threads t
  set last_member_message_at = (
    select max(created_at) from messages m
    where m.thread_id = t.id and m.sender_id <> 'c0ffee00-5eed-4a11-9e1c-000000000002');
update message_threads set activity_at = coalesce(last_message_at, created_at);
alter table message_threads alter column activity_at set not null;

-- The thread list: pinned first, then the most recently active (keyset paging on it).
create index message_threads_list on message_threads (pinned desc, activity_at desc, id);
-- Discussions Today: public threads whose last member message is since midnight.
create index message_threads_member_activity on message_threads (last_member_message_at) where not is_direct;

-- Per member, kept by the memberships projection: when she last posted (Active Members).
create table member_activity (
  user_id uuid primary key,
  last_posted_at timestamptz not null
);
insert into member_activity (user_id, last_posted_at)
  select sender_id, max(created_at) from messages
  where sender_id <> 'c0ffee00-5eed-4a11-9e1c-000000000002'
  group by sender_id;
create index member_activity_time on member_activity (last_posted_at);

-- Sleep Studies Shared: participants whose start date is 42 days ago or more.
create index study_participants_start on study_participants (study_start_date);
