-- Growth (issue #16): her entries a page at a time, newest first, by (date, created_at, id).
create index journal_entries_user_page on journal_entries (user_id, date desc, created_at desc, id desc);
drop index journal_entries_user_newest;
