create table notes (id uuid primary key, body text not null, created_at timestamptz not null);
