-- The time zone she was in when she logged each night (study.sleep_log.* carry it since
-- 2026-12-06): the QA rules read when a night was recorded against its end at 04:00 there,
-- not in the zone she has at the run. Null for the nights logged before, which are judged
-- in her zone at the run, as all nights were until then.
alter table research_nights add column timezone text;
