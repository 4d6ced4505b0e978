-- The admins who write articles, as far as the library must know them: one row an admin,
-- made at her first write; a deleted one keeps her id and the time of her deletion only.
-- A write of hers share-locks her row, her deletion (identity.user.deleted) takes it
-- exclusively: a write under way finishes first, and her id is then cleared from it; one
-- made after with her token (it lives up to an hour) finds her deleted and is refused. The
-- library keeps no user directory, so without it a write committed while her deletion ran
-- kept her id for good.
create table library_authors (
  user_id uuid primary key,
  deleted_at timestamptz
);
