-- Between midnight and 04:00 her current night is still yesterday's, so three of her nights
-- may be logged ahead of the due ones (that night, today's and tomorrow's, the latest study
-- takes): study compliance leaves out her last three nights when they are not due yet, not
-- only her last two (which counted one night too many, "2 of 1 due").
alter table admin_night_activity add column if not exists third_night_date date;
alter table admin_night_activity add column if not exists third_night_in_study boolean;
update admin_night_activity a set third_night_date = r.third_date, third_night_in_study = r.third_in_study
from (
  select user_id, (array_agg(date order by date desc))[3] as third_date,
    (array_agg(study_day between 1 and 42 order by date desc))[3] as third_in_study
  from research_nights group by user_id
) r
where r.user_id = a.user_id and r.third_date is not null;
