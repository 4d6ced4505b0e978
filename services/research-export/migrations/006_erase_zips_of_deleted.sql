-- Once, for the zips kept before a deletion removed the zips that may hold her (migration
-- 005, users/user-deleted.ts): any run started before some user's deletion may hold her,
-- and which deleted users were participants is no longer known. Their zips are removed
-- the same way (the runs stay listed, saying why).
insert into research_run_erasures (run_id, erased_at)
select f.run_id, now()
from research_run_files f
join research_runs r on r.id = f.run_id
where exists (select 1 from deleted_users d where d.deleted_at >= r.started_at)
on conflict (run_id) do nothing;

delete from research_run_files f
using research_run_erasures e
where e.run_id = f.run_id;
