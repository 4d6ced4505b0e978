import type { EventMetadata } from '@sleepweave/event-store';
import { execute } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { resetLinkStreamId } from '../password-reset/reset-link.ts';
import { sessionStreamId } from '../sessions/session.ts';
import { actingAdmin, ROLE_LOCK } from '../users/commands.ts';
import { countAdmins } from '../users/queries.ts';
import { userStreamId } from '../users/user.ts';
import type { DeletedBy } from './account-deletion.ts';
import { accountDeletionStreamId } from './account-deletion.ts';
import { accountDeletionDecider } from './business-logic.ts';

/**
 * `password_changed`: her password is no longer the one `verifiedHash` says was checked;
 * `actor_gone`: the admin who asked (`actorId`) was deleted meanwhile.
 */
export type DeleteUserResult = 'deleted' | 'no_such_user' | 'last_admin' | 'password_changed' | 'actor_gone' | 'actor_not_admin';

/**
 * Deletes a user for good (docs/data-protection.md), in one transaction:
 * 1. takes her `user:` stream's append lock and her `users` row, so no command on her
 *    stream and no new session of hers can slip in meanwhile; refuses (`last_admin`) when
 *    she is the only admin;
 * 2. appends to `account_deletion:<id>` a SessionRevoked for each active session and
 *    UserDeleted (ids and times only); the projections delete her rows;
 * 3. deletes her `user:` stream (profile, hashes) and every `session:` and
 *    `password_reset:` stream of hers, and the per-e-mail counters that hold her address.
 * After the commit the relay publishes the revocations and `identity.user.deleted`.
 */
export async function deleteUser(
  ctx: IdentityContext,
  userId: string,
  deletedBy: DeletedBy,
  metadata: EventMetadata,
  options: { now?: Date; verifiedHash?: string; actorId?: string } = {},
): Promise<DeleteUserResult> {
  const now = options.now ?? ctx.clock();
  return execute(ctx, { metadata }, async ({ tx, handle }) => {
    // An empty append takes the stream's lock and appends nothing: commands on her
    // stream that started earlier finish first; later ones find the stream gone.
    await ctx.store.appendToStream(userStreamId(userId), [], { expectedVersion: 'any', tx });
    // The last admin's account stays until another admin is named (as her role does);
    // role changes and deletions of admins take turns on the same lock.
    await tx`select pg_advisory_xact_lock(hashtext(${ROLE_LOCK}))`;
    if (options.actorId !== undefined) {
      const actor = await actingAdmin(tx, options.actorId);
      if (actor === 'gone') return 'actor_gone' as const;
      if (actor === 'not_admin') return 'actor_not_admin' as const;
    }
    const [user] = await tx<{ email: string; role: string; password_hash: string }[]>`
      select email, role, password_hash from users where id = ${userId} for update`;
    if (!user) return 'no_such_user' as const;
    // Her own deletion, confirmed with a password checked before her stream's turn came: a
    // change or a reset of it that committed meanwhile stops it.
    if (options.verifiedHash !== undefined && user.password_hash !== options.verifiedHash) return 'password_changed' as const;
    if (user.role === 'admin') {
      if ((await countAdmins(tx)) <= 1) return 'last_admin' as const;
    }

    // her reset links, each a stream of its own (her rows name them; the deletion removes the rows)
    const links = await tx<{ id: string }[]>`select id from password_reset_tokens where user_id = ${userId}`;
    const sessions = await tx<{ id: string; active: boolean; revoked: boolean }[]>`
      select id, (revoked_at is null and expires_at > ${now}) as active, revoked_at is not null as revoked
      from sessions where user_id = ${userId}`;
    await handle(accountDeletionStreamId(userId), accountDeletionDecider, {
      type: 'DeleteAccount',
      data: { userId, activeSessionIds: sessions.filter((s) => s.active).map((s) => s.id), deletedBy, now },
    });

    const [revoked, open] = [sessions.filter((s) => s.revoked), sessions.filter((s) => !s.revoked)];
    await ctx.store.deleteStreams([userStreamId(userId), ...open.map((s) => sessionStreamId(s.id))], tx);
    // A revoked session takes no command any more (a refresh is refused, a revocation finds
    // it revoked): its stream goes without its lock. Scripted sign-ins past her limit of
    // sessions leave many of them for a day (sessions/retention.ts). Nor does a reset link
    // once written (a new one for her waits for her stream's lock, held here, then finds her gone).
    await ctx.store.deleteStreams([...revoked.map((s) => sessionStreamId(s.id)), ...links.map((link) => resetLinkStreamId(link.id))], tx, {
      settled: true,
    });
    await tx`delete from login_failures where email = ${user.email}`;
    await tx`delete from password_reset_requests where email = ${user.email}`;
    // her id as the actor of events she caused on other streams (e.g. an admin who deleted
    // another account) goes too
    await ctx.store.eraseUserFromMetadata(userId, tx);
    // and as the admin who granted or revoked someone's role (the change stays, by an admin
    // no longer named: `via` says it was one, not the command line)
    await tx`
      update events set data = jsonb_set(jsonb_set(data, '{grantedBy}', 'null'::jsonb), '{via}', '"admin"'::jsonb)
      where type = 'RoleGranted' and data->>'grantedBy' = ${userId}`;
    return 'deleted' as const;
  });
}
