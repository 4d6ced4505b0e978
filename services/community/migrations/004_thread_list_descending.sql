-- The thread list's order is now descending in every column (pinned, activity, id), so that
-- a page after a cursor is one range of this index, (pinned, activity_at, id) < the cursor's:
-- with id ascending the cursor was an OR that PostgreSQL cannot bound an index scan with, and
-- a page 9/10 of the way in read the nine tenths before it (issue #16, growth).
drop index message_threads_list;
create index message_threads_list on message_threads (pinned desc, activity_at desc, id desc);
