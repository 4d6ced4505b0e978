import type { Tx } from '@sleepweave/event-store';
import type { LibraryContext } from '../context.ts';

/**
 * identity.user.deleted (docs/data-protection.md): forget which articles she published or
 * revised. The library holds no other user data (and no user directory): the articles stay
 * (they are the library's, not hers), but her user id goes from the read model, from the
 * events' data and from their metadata, in the consumer's transaction. Her id stays in
 * `library_authors` with the time of her deletion only, to refuse a write made after it.
 */
export async function onUserDeleted(ctx: LibraryContext, tx: Tx, userId: string): Promise<void> {
  // Her row first, exclusively: a write of hers under way (it holds the row) commits first,
  // and is cleared below; a later one finds her deleted (articles/commands.ts).
  await tx`
    insert into library_authors (user_id, deleted_at) values (${userId}, now())
    on conflict (user_id) do update set deleted_at = excluded.deleted_at`;
  await tx`update library_cards set created_by = null where created_by = ${userId}`;
  await tx`update library_cards set updated_by = null where updated_by = ${userId}`;
  await tx`
    update events set data = jsonb_set(data, '{publishedBy}', 'null'::jsonb)
    where type = 'ArticlePublished' and data ->> 'publishedBy' = ${userId}`;
  await tx`
    update events set data = jsonb_set(data, '{revisedBy}', 'null'::jsonb)
    where type = 'ArticleRevised' and data ->> 'revisedBy' = ${userId}`;
  await ctx.store.eraseUserFromMetadata(userId, tx);
}
