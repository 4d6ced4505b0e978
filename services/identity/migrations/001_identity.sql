-- Read models of the identity service (the events table is the event store's own).

create table users (
  id uuid primary key,
  email text not null unique,
  password_hash text not null,
  first_name text not null,
  last_name text not null,
  profile_image_url text,
  date_of_birth date,
  timezone text not null,
  hormonal_stage text,
  role text not null default 'participant' check (role in ('participant', 'admin')),
  study_start_date date,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create table sessions (
  id uuid primary key,
  user_id uuid not null references users (id) on delete cascade,
  refresh_token_hash text not null unique,
  started_at timestamptz not null,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoke_reason text
);
create index sessions_user_id on sessions (user_id);

-- Failed sign-ins per account (the e-mail as typed, normalised), for the per-account limit.
-- Kept for whatever e-mail is typed, so the limit answers the same for unknown accounts.
create table login_failures (
  email text not null,
  failed_at timestamptz not null default now()
);
create index login_failures_email_time on login_failures (email, failed_at);

-- ES256 key pairs that sign access tokens; the public halves are served as the JWKS.
create table signing_keys (
  kid text primary key,
  private_jwk jsonb not null,
  public_jwk jsonb not null,
  created_at timestamptz not null default now()
);
