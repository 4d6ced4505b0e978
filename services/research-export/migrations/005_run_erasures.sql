-- Runs whose zip was removed because a participant in it deleted her account
-- (docs/data-protection.md): a deleted user is in no export we keep. Beside
-- research_run_files, a file store's record, not a read model of events.
create table research_run_erasures (
  run_id uuid primary key,
  erased_at timestamptz not null
);
