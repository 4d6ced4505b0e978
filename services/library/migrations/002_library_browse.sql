-- Growth (issue #16): browsing the library a page at a time, newest first, then by
-- category (in the order the library lists them, LIBRARY_CATEGORIES) and title, as one
-- range of an index. The rank was computed in the query, so every page read and sorted
-- every card.
alter table library_cards
  add column category_rank smallint not null generated always as (
    case category when 'Fabric info' then 1 when 'Sleep tips' then 2 when 'Research Studies' then 3 end
  ) stored;
create index library_cards_browse on library_cards (created_at desc, category_rank, title, id);
