create table consented (user_id uuid primary key);
