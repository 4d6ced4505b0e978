import type { IdentityContext } from '../context.ts';
import { userDecider } from './business-logic.ts';
import { findUserByEmail } from './queries.ts';
import { userStreamId } from './user.ts';

export type GrantResult = 'granted' | 'already_admin' | 'no_such_user';

/** Makes a registered user an admin (an event, so other services learn it too). */
export async function grantAdmin(ctx: IdentityContext, email: string): Promise<GrantResult> {
  const user = await findUserByEmail(ctx.sql, email.trim().toLowerCase());
  if (!user) return 'no_such_user';
  if (user.role === 'admin') return 'already_admin';
  await ctx.store.handle(
    userStreamId(user.id),
    userDecider,
    { type: 'GrantRole', data: { userId: user.id, role: 'admin', now: new Date() } },
    {},
  );
  return 'granted';
}

export async function grantAdminEmails(ctx: IdentityContext, emails: string[]): Promise<void> {
  for (const email of emails) {
    const result = await grantAdmin(ctx, email);
    if (result === 'no_such_user') {
      ctx.logger.warn({ email }, 'ADMIN_EMAILS lists an address with no account: register it, then restart or run admin:grant');
    } else {
      ctx.logger.info({ email, result }, 'ADMIN_EMAILS');
    }
  }
}
