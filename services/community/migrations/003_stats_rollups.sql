-- Growth (issue #16): Community Stats read per-day rollups the projections keep, so a stats
-- request reads about 30 rows plus one day's members, whatever the number of members or
-- participants (docs/community.md, "Growth").

-- Active Members: how many members last posted on each day (UTC). A member counts on the
-- day of her last post only; a newer post moves her to its day.
create table member_activity_days (
  day date primary key,
  members integer not null check (members > 0)
);
insert into member_activity_days (day, members)
  select (last_posted_at at time zone 'UTC')::date, count(*) from member_activity group by 1;

-- Sleep Studies Shared: how many participants started the study on each date.
create table study_start_days (
  start_date date primary key,
  participants integer not null check (participants > 0)
);
insert into study_start_days (start_date, participants)
  select study_start_date, count(*) from study_participants group by 1;
