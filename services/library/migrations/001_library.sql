-- Read model of the library service (the events table is the event store's own).

-- The words of a card's tags as one text (array_to_string is only STABLE in general;
-- for text[] it does not depend on any setting, so this wrapper may be IMMUTABLE and be
-- used by the generated column below).
create function library_tags_text(tags text[]) returns text
  language sql immutable parallel safe
  as $$ select coalesce(array_to_string(tags, ' '), '') $$;

-- Both an English (stemmed: "studies" finds "study") and a simple (unstemmed, no stop
-- words: "the" still finds "thermoregulation" as she types) vector of a text.
create function library_tsvector(body text) returns tsvector
  language sql immutable parallel safe
  as $$ select to_tsvector('english'::regconfig, coalesce(body, '')) || to_tsvector('simple'::regconfig, coalesce(body, '')) $$;

create table library_cards (
  id uuid primary key,
  category text not null check (category in ('Fabric info', 'Sleep tips', 'Research Studies')),
  title text not null,
  summary text not null,
  -- sanitized with the allow-list before it was stored (src/articles/sanitize.ts)
  body_html text not null,
  -- the body's words without tags, for search
  body_text text not null,
  image_path text not null,
  tags text[] not null default '{}',
  created_at timestamptz not null,
  updated_at timestamptz not null,
  -- the admin who published / last revised it (null: the system seed, or a deleted user)
  created_by uuid,
  updated_by uuid,
  -- ranked full-text search: title A, tags and category B, summary C, body D
  search tsvector generated always as (
    setweight(library_tsvector(title), 'A') ||
    setweight(library_tsvector(library_tags_text(tags) || ' ' || category), 'B') ||
    setweight(library_tsvector(summary), 'C') ||
    setweight(library_tsvector(body_text), 'D')
  ) stored
);
create index library_cards_search on library_cards using gin (search);
create index library_cards_created_by on library_cards (created_by) where created_by is not null;
create index library_cards_updated_by on library_cards (updated_by) where updated_by is not null;
