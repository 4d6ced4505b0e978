-- A sign-in failure is counted for the account and for the client it came from (its
-- address; an IPv6 /64), so that failing on purpose from one place no longer locks her
-- out everywhere (docs/decisions.md, "Sign-in protection"). Failures recorded before
-- stand for no client: they count for the account only.
alter table login_failures add column client text not null default '';
create index login_failures_email_client on login_failures (email, client, failed_at);
-- (what the old index served, by e-mail, this one serves as well)
drop index login_failures_email_time;
-- every failure past its window goes, whoever typed it (only the e-mail's went before, so
-- addresses never typed again stayed for good)
create index login_failures_time on login_failures (failed_at);
