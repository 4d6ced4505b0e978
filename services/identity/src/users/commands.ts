import type { HormonalStage, Role, Timezone } from '@sleepweave/contracts';
import { lockStream, type EventMetadata, type Tx } from '@sleepweave/event-store';
import { LAST_ADMIN_MESSAGE } from '@sleepweave/contracts';
import { conflict, execute, forbidden, HttpError, notFound, runCommand, unauthorized, type DomainErrors } from '@sleepweave/service-kit';
import type { IdentityContext } from '../context.ts';
import { PasswordChangedMeanwhile, revokeUserSessions } from '../sessions/commands.ts';
import { EDITABLE_PROFILE, LastAdmin, ProfileChangedMeanwhile, UserNotFound, userDecider, type EditableProfile } from './business-logic.ts';
import { countAdmins, findUserByEmail } from './queries.ts';
import { userStreamId } from './user.ts';

export const EMAIL_TAKEN = 'An account with this email already exists.';

/** Her own account is gone (deleted a moment ago): she is signed out. */
const errors: DomainErrors = [
  [UserNotFound, () => unauthorized()],
  [ProfileChangedMeanwhile, (err) => new HttpError(409, 'changed_meanwhile', profileChangedMeanwhile(err as ProfileChangedMeanwhile))],
];

/** Her save refused: which field was changed elsewhere since her form was filled. */
export function profileChangedMeanwhile(err: ProfileChangedMeanwhile): string {
  const now = err.current === null ? 'cleared' : `changed to “${err.current}”`;
  return `Your ${EDITABLE_PROFILE[err.field].toLowerCase()} was ${now} in another tab or on another device since you opened this page, so nothing was saved now. Your changes are still in the form: save again to keep yours.`;
}

function isEmailTaken(err: unknown): boolean {
  const e = err as { code?: string; constraint_name?: string };
  return e.code === '23505' && e.constraint_name === 'users_email_key';
}

export interface Registration {
  userId: string;
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  timezone: Timezone;
  hormonalStage: HormonalStage | null;
  now: Date;
}

/**
 * A new participant. Never an admin at sign-up: without e-mail verification, whoever
 * registered a listed address first would get admin rights (ADMIN_EMAILS applies once, at
 * the first start that lists an address, to an account that exists; docs/decisions.md). 409 when the e-mail is taken (the
 * `users` read model's unique index, inside the append transaction).
 */
export async function registerUser(ctx: IdentityContext, input: Registration, metadata: EventMetadata): Promise<void> {
  try {
    await runCommand(
      ctx,
      userStreamId(input.userId),
      userDecider,
      { type: 'RegisterUser', data: { ...input, role: 'participant' } },
      { metadata },
    );
  } catch (err) {
    if (isEmailTaken(err)) throw conflict(EMAIL_TAKEN);
    throw err;
  }
}

/**
 * Her settings: names, timezone, hormonal stage (identity.user.profile_updated for the
 * others). Stamped once her stream's turn has come (`now` by default): the other services
 * keep the change with the newest stamp, which is then also the last one committed here.
 */
export async function updateProfile(
  ctx: IdentityContext,
  input: {
    userId: string;
    firstName: string;
    lastName: string;
    timezone: Timezone;
    hormonalStage: HormonalStage;
    now?: Date;
    expected?: EditableProfile | undefined;
  },
  metadata: EventMetadata,
): Promise<void> {
  const stream = userStreamId(input.userId);
  await execute(ctx, { metadata, errors }, async ({ tx, handle }) => {
    await lockStream(tx, stream);
    await handle(stream, userDecider, { type: 'UpdateProfile', data: { ...input, now: input.now ?? ctx.clock() } });
  });
}

/**
 * A new password; her other sessions end, `keep` stays. `verifiedHash`: the hash the caller
 * checked her current password against, which must still be hers once her stream's turn
 * has come (else PasswordChangedMeanwhile): a change or a reset that committed while the
 * caller was checking would otherwise be overwritten by one made with the password it
 * replaced.
 */
export async function changePassword(
  ctx: IdentityContext,
  input: { userId: string; verifiedHash: string; passwordHash: string; keep: string; now: Date },
  metadata: EventMetadata,
): Promise<void> {
  const { userId, verifiedHash, passwordHash, keep, now } = input;
  await execute(ctx, { metadata, errors }, async (scope) => {
    // Every change of her password is a command on her stream: with its lock held, her row is current.
    await lockStream(scope.tx, userStreamId(userId));
    const [row] = await scope.tx<{ password_hash: string }[]>`select password_hash from users where id = ${userId}`;
    if (row && row.password_hash !== verifiedHash) throw new PasswordChangedMeanwhile();
    await scope.handle(userStreamId(userId), userDecider, { type: 'ChangePassword', data: { userId, passwordHash, now } });
    await revokeUserSessions(scope, userId, 'password_changed', { now, keep });
  });
}

export type RoleResult = 'granted' | 'unchanged' | 'no_such_user';

/**
 * Gives a registered user a role (an event, so other services learn it too). Role changes
 * take turns on one lock (changeRole's), and are stamped once theirs has come (`now` by
 * default): the directories keep the newest stamp, which is then the last change committed.
 */
export async function setRole(ctx: IdentityContext, userId: string, role: Role, metadata: EventMetadata, now?: Date): Promise<RoleResult> {
  try {
    return await execute(ctx, { metadata }, async ({ tx, handle }) => {
      await tx`select pg_advisory_xact_lock(hashtext(${ROLE_LOCK}))`;
      const { events } = await handle(userStreamId(userId), userDecider, {
        type: 'GrantRole',
        data: { userId, role, now: now ?? ctx.clock() },
      });
      return events.length > 0 ? ('granted' as const) : ('unchanged' as const);
    });
  } catch (err) {
    if (err instanceof UserNotFound) return 'no_such_user';
    throw err;
  }
}

export type GrantResult = 'granted' | 'already_admin' | 'no_such_user';

/** Makes a registered user an admin, by e-mail (npm run admin:grant, ADMIN_EMAILS). */
export async function grantAdmin(ctx: IdentityContext, email: string): Promise<GrantResult> {
  const user = await findUserByEmail(ctx.sql, email.trim().toLowerCase());
  if (!user) return 'no_such_user';
  const result = await setRole(ctx, user.id, 'admin', {});
  return result === 'unchanged' ? 'already_admin' : result;
}

/**
 * ADMIN_EMAILS at start: each address is read once, by the first start that lists it (the
 * migration 005's table): its account, if it has one by then, is made an admin; later starts
 * leave the address alone. A role revoked from /admin stays revoked, and an address listed
 * before anyone registered it is not handed to whoever registers it first (addresses are not
 * verified): once she has, `npm run admin:grant` grants it. Two instances starting at once
 * read an address once between them.
 */
export async function grantAdminEmails(ctx: IdentityContext, emails: string[]): Promise<void> {
  for (const email of emails) {
    const [first] = await ctx.sql<{ email: string }[]>`
      insert into admin_emails_read (email, read_at, granted) values (${email}, now(), false)
      on conflict (email) do nothing
      returning email`;
    if (!first) continue;
    let result: GrantResult;
    try {
      result = await grantAdmin(ctx, email);
    } catch (err) {
      // not read after all: the next start tries again
      await ctx.sql`delete from admin_emails_read where email = ${email}`.catch(() => undefined);
      throw err;
    }
    if (result === 'no_such_user') {
      ctx.logger.warn(
        { email },
        'ADMIN_EMAILS lists an address with no account; it is read once, so once she has registered it, grant the role with npm run admin:grant',
      );
      continue;
    }
    await ctx.sql`update admin_emails_read set granted = true where email = ${email}`;
    ctx.logger.info({ email, result }, 'ADMIN_EMAILS');
  }
}

/** Role changes (and deleting an admin) take turns: the last-admin rule counts admins that no concurrent change is changing. */
export const ROLE_LOCK = 'identity:admin-roles';

/**
 * Who acts as an admin, as the users table says now (asked under ROLE_LOCK, after every role
 * change and deletion before it): `gone` (her account was deleted, her id cleared from every
 * event; her token outlives her by up to an hour: one gone changes nothing, her id on
 * nothing), `not_admin`
 * (her role was revoked; her token, or the gateway, has not caught up: she may not give it
 * back to herself, or act on anyone, meanwhile) or `admin`.
 */
export async function actingAdmin(tx: Tx, actorId: string): Promise<'admin' | 'not_admin' | 'gone'> {
  const [row] = await tx<{ role: string }[]>`select role from users where id = ${actorId}`;
  return !row ? 'gone' : row.role === 'admin' ? 'admin' : 'not_admin';
}

export type RoleChange = 'granted' | 'revoked' | 'unchanged';

/**
 * An admin grants (`admin`) or revokes (`participant`) the admin role of a user, from the
 * admin screen: recorded with who did it (identity.user.role_granted), so the audit trail
 * lists it. 404 for no such user; 409 when it would leave no admin. Role changes are
 * serialised (a transaction lock), so two admins revoking each other at once cannot both win.
 */
export async function changeRole(
  ctx: IdentityContext,
  input: { userId: string; role: Role; by: string; now?: Date },
  metadata: EventMetadata,
): Promise<RoleChange> {
  const { userId, role, by } = input;
  const roleErrors: DomainErrors = [
    [UserNotFound, () => notFound('No such user.')],
    [LastAdmin, () => conflict(LAST_ADMIN_MESSAGE)],
  ];
  return execute(ctx, { metadata, errors: roleErrors }, async ({ tx, handle }) => {
    await tx`select pg_advisory_xact_lock(hashtext(${ROLE_LOCK}))`;
    const actor = await actingAdmin(tx, by);
    if (actor === 'gone') throw unauthorized();
    if (actor === 'not_admin') throw forbidden();
    // stamped once the role changes' turn has come: stamps follow the commits (the directories keep the newest)
    const now = input.now ?? ctx.clock();
    const stream = userStreamId(userId);
    if (role === 'admin') {
      const { events } = await handle(stream, userDecider, { type: 'GrantRole', data: { userId, role, now, grantedBy: by } });
      return events.length > 0 ? 'granted' : 'unchanged';
    }
    const admins = await countAdmins(tx);
    const { events } = await handle(stream, userDecider, { type: 'RevokeAdminRole', data: { userId, revokedBy: by, admins, now } });
    return events.length > 0 ? 'revoked' : 'unchanged';
  });
}
