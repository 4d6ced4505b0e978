-- Growth (issue #16): a deleted user's threads are found by their creator (users/user-deleted.ts)
-- twice a deletion; without an index each read every thread.
create index message_threads_created_by on message_threads (created_by) where created_by is not null;
