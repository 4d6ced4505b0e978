import type { HormonalStage, Role, Timezone } from '@sleepweave/contracts';
import type { Tx } from '@sleepweave/event-store';
import { setTimeout as sleep } from 'node:timers/promises';
import { RetryLater } from '@sleepweave/bus';
import type { Sql } from './database.ts';
import { HttpError, unauthorized } from './errors.ts';
import { defineConsumer, type ConsumerDefinition } from './consumers.ts';

/**
 * A service's own copy of the users it needs to know (names, timezone, stage, role),
 * kept from identity's events. Services never read identity's database.
 *
 * On `identity.user.deleted` the row goes and the service's `onUserDeleted` removes
 * everything else of hers, in the same transaction (docs/data-protection.md).
 */
export interface DirectoryUser {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  dateOfBirth: string | null;
  timezone: Timezone;
  hormonalStage: HormonalStage | null;
  profileImageUrl: string | null;
  role: Role;
  registeredAt: Date;
}

/** Removes everything else a service holds of a deleted user (docs/data-protection.md). */
export type UserDeletedHandler = (tx: Tx, userId: string) => Promise<void>;

/** Keeps what a service derives from her directory row, after her registration or a change of it. */
export type UserChangedHandler = (tx: Tx, userId: string) => Promise<void>;

export async function migrateUserDirectory(sql: Sql): Promise<void> {
  // `create table if not exists` races on pg_type when two instances start together
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('sleepweave_user_directory'))`;
    await tx`
    create table if not exists user_directory (
      user_id uuid primary key,
      email text not null,
      first_name text not null,
      last_name text not null,
      date_of_birth date,
      timezone text not null,
      hormonal_stage text,
      profile_image_url text,
      role text not null,
      registered_at timestamptz not null,
      updated_at timestamptz not null default now()
    )`;
    // Ids only: a redelivered or late `registered` of a deleted user must not bring her back.
    await tx`
    create table if not exists deleted_users (
      user_id uuid primary key,
      deleted_at timestamptz not null
    )`;
    // When her role last changed (identity's grantedAt): a change applied late, after a newer
    // one, changes nothing. Asked first: ALTER TABLE takes its exclusive lock even when the
    // column is there, and would queue every command behind any open transaction on the table.
    const [column] = await tx`
      select 1 from information_schema.columns
      where table_schema = current_schema() and table_name = 'user_directory' and column_name = 'role_changed_at'`;
    if (!column) await tx`alter table user_directory add column role_changed_at timestamptz`;
  });
}

/**
 * The consumer `<service>-identity-users` that keeps `user_directory`; on
 * `identity.user.deleted` her row goes and `onUserDeleted` removes the rest of hers, in the
 * same transaction. After her registration, a profile update or a role change has written
 * her row, `onUserChanged` (when given) runs in that transaction too (not when the event
 * changed nothing: a late older update, or a user deleted or unknown here).
 */
export function userDirectoryConsumer(
  service: string,
  onUserDeleted: UserDeletedHandler,
  onUserChanged?: UserChangedHandler,
): ConsumerDefinition {
  return defineConsumer({
    name: `${service}-identity-users`,
    types: ['identity.user.registered', 'identity.user.profile_updated', 'identity.user.role_granted', 'identity.user.deleted'],
    tables: ['user_directory', 'deleted_users'],
    // users' events by her lock, then by her (consumers of her rows take users in one order)
    orderKey: (envelope) => userOrderKey(envelope.data.userId),
    async handle(tx, envelope) {
      // One user's events are applied one at a time. Two instances share this consumer, and
      // the bus hands each whichever event comes next: her registration and her deletion
      // applied side by side each saw nothing of the other (the insert's snapshot predated
      // the deletion's commit), and her row came back for good. After the lock, each
      // statement sees what the other committed (read committed). The lock is one of
      // DIRECTORY_LOCKS by her id: a rebuild replays every user in one transaction, and a
      // lock per user would fill PostgreSQL's lock table (some 6,400 at 100 connections).
      await tx`select pg_advisory_xact_lock(hashtext('user_directory'), ${directoryLockOf(envelope.data.userId)})`;
      switch (envelope.type) {
        case 'identity.user.registered': {
          const d = envelope.data;
          const written = await tx`
            insert into user_directory (user_id, email, first_name, last_name, date_of_birth, timezone, hormonal_stage, profile_image_url, role, registered_at, updated_at)
            select ${d.userId}, ${d.email}, ${d.firstName}, ${d.lastName}, ${d.dateOfBirth}, ${d.timezone}, ${d.hormonalStage}, ${d.profileImageUrl}, ${d.role}, ${d.registeredAt}, ${d.registeredAt}
            where not exists (select 1 from deleted_users where user_id = ${d.userId})
            on conflict (user_id) do nothing`;
          if (written.count > 0) await onUserChanged?.(tx, d.userId);
          return;
        }
        case 'identity.user.profile_updated': {
          const d = envelope.data;
          const written = await tx`
            update user_directory set first_name = ${d.firstName}, last_name = ${d.lastName}, date_of_birth = ${d.dateOfBirth},
              timezone = ${d.timezone}, hormonal_stage = ${d.hormonalStage}, profile_image_url = ${d.profileImageUrl}, updated_at = ${d.updatedAt}
            where user_id = ${d.userId} and updated_at <= ${d.updatedAt}`; // an older update redelivered late changes nothing
          if (written.count > 0) await onUserChanged?.(tx, d.userId);
          else await awaitRegistration(tx, d.userId);
          return;
        }
        case 'identity.user.role_granted': {
          const d = envelope.data;
          const written = await tx`
            update user_directory set role = ${d.role}, role_changed_at = ${d.grantedAt}
            where user_id = ${d.userId} and (role_changed_at is null or role_changed_at <= ${d.grantedAt})`;
          if (written.count > 0) await onUserChanged?.(tx, d.userId);
          else await awaitRegistration(tx, d.userId);
          return;
        }
        case 'identity.user.deleted': {
          const { userId } = envelope.data;
          await tx`delete from user_directory where user_id = ${userId}`;
          await tx`insert into deleted_users (user_id, deleted_at) values (${userId}, ${envelope.time}) on conflict do nothing`;
          await onUserDeleted(tx, userId);
          return;
        }
      }
    },
  });
}

/** How many locks the directory's events take turns on (users share one by a hash of their id). */
export const DIRECTORY_LOCKS = 256;

/**
 * The order a batch applies users' events in (a consumer's `orderKey`): by the directory
 * lock her events take turns on, then by her id. Every consumer that declares it takes
 * users' locks and rows in this one order, so two batches (two consumers, two instances)
 * never wait for each other in a circle.
 */
export function userOrderKey(userId: string): string {
  return `${String(directoryLockOf(userId)).padStart(3, '0')}:${userId}`;
}

/** Which of the DIRECTORY_LOCKS a user's events take turns on. */
export function directoryLockOf(userId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) hash = Math.imul(hash ^ userId.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % DIRECTORY_LOCKS;
}

/**
 * A change that found no row of hers: nothing to do when she was deleted, or when a newer
 * change is there already; while her registration has not been applied here (another
 * instance has it in hand) the change waits for it (RetryLater), instead of being lost.
 */
async function awaitRegistration(tx: Tx, userId: string): Promise<void> {
  const [row] = await tx`select 1 from user_directory where user_id = ${userId}`;
  if (row || (await isDeletedUser(tx, userId))) return;
  throw new RetryLater(`user ${userId} is not known here yet`);
}

/** For a service that keeps no directory: `<service>-identity-deletions` runs `onUserDeleted` only. */
export function userDeletionConsumer(service: string, onUserDeleted: UserDeletedHandler): ConsumerDefinition {
  return defineConsumer({
    name: `${service}-identity-deletions`,
    types: ['identity.user.deleted'],
    tables: [],
    handle: (tx, envelope) => onUserDeleted(tx, envelope.data.userId),
  });
}

interface DirectoryRow {
  user_id: string;
  email: string;
  first_name: string;
  last_name: string;
  date_of_birth: string | null;
  timezone: Timezone;
  hormonal_stage: HormonalStage | null;
  profile_image_url: string | null;
  role: Role;
  registered_at: Date;
}

const toDirectoryUser = (row: DirectoryRow): DirectoryUser => ({
  userId: row.user_id,
  email: row.email,
  firstName: row.first_name,
  lastName: row.last_name,
  dateOfBirth: row.date_of_birth,
  timezone: row.timezone,
  hormonalStage: row.hormonal_stage,
  profileImageUrl: row.profile_image_url,
  role: row.role,
  registeredAt: row.registered_at,
});

export async function findDirectoryUser(sql: Sql | Tx, userId: string): Promise<DirectoryUser | undefined> {
  const [row] = await (sql as Sql)<DirectoryRow[]>`
    select user_id, email, first_name, last_name, date_of_birth::text as date_of_birth, timezone, hormonal_stage,
           profile_image_url, role, registered_at
    from user_directory where user_id = ${userId}`;
  return row ? toDirectoryUser(row) : undefined;
}

// Writes of a user's data and her deletion (docs/data-protection.md)

export const PROFILE_NOT_READY_MESSAGE = 'Your profile is still being set up. Please try again in a moment.';
export const ACCOUNT_DELETED_MESSAGE = 'This account has been deleted.';

/** Her registration reaches this service through identity's events, a moment after sign-up. */
export const profileNotReady = () => new HttpError(503, 'unavailable', PROFILE_NOT_READY_MESSAGE);
export const isProfileNotReady = (err: unknown): boolean => err instanceof HttpError && err.message === PROFILE_NOT_READY_MESSAGE;
/** Her token outlived her account for a moment (the gateway refuses it within a second). */
export const accountDeleted = () => unauthorized(ACCOUNT_DELETED_MESSAGE);

/**
 * Whether identity told this service that the user was deleted (`deleted_users`, ids only,
 * kept by libs/service-kit with user_directory in the deletion's transaction).
 */
export async function isDeletedUser(sql: Sql | Tx, userId: string): Promise<boolean> {
  const rows = await (sql as Sql)`select 1 from deleted_users where user_id = ${userId}`;
  return rows.length > 0;
}

/**
 * What her request reads again just after its write committed, to answer with it. It is
 * gone only if another transaction deleted it in between: her account's deletion, which
 * takes everything of hers (401, as for any later request of hers; it was a 201 with
 * nothing, or a 500), or what `gone` says (e.g. the thread she posted in, which an admin
 * deleted). Without `gone`, nothing else deletes it, and its absence is a bug (a 500).
 */
export async function readAfterWrite<T>(sql: Sql, userId: string, value: T | undefined, gone?: () => HttpError): Promise<T> {
  if (value !== undefined) return value;
  if (await isDeletedUser(sql, userId)) throw accountDeleted();
  if (gone) throw gone();
  throw new Error(`what user ${userId} just wrote is gone, though she is not deleted`);
}

/** How long awaitDirectoryUser waits for her registration before answering 503. */
export const PROFILE_WAIT_MS = 3_000;

/**
 * Right after sign-up her registration may still be on its way to this service (it
 * usually takes well under a second): waits a little for it, then answers 503 rather
 * than guess. A deleted user (her token outlived her for a moment) gets 401 at once.
 * This only waits, outside any transaction: the write then takes lockDirectoryUser.
 */
export async function awaitDirectoryUser(sql: Sql, userId: string, waitMs = PROFILE_WAIT_MS): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 400)) {
    if (await findDirectoryUser(sql, userId)) return;
    if (await isDeletedUser(sql, userId)) throw accountDeleted();
    if (Date.now() + delay > deadline) throw profileNotReady();
    await sleep(delay);
  }
}

/** What a command learns from her locked directory row. */
export interface DirectoryLock {
  timezone: Timezone;
}

/**
 * Her user_directory row, share-locked until the transaction ends; undefined when there
 * is none. Every write of her data takes it first, in the append transaction: a
 * concurrent `identity.user.deleted` (which deletes this row first, then everything else
 * of hers) waits for our commit and then deletes what we wrote, or we wait for it and
 * find no row. Either way nothing of a deleted user survives (docs/data-protection.md).
 */
export async function lockDirectoryRow(tx: Tx, userId: string): Promise<DirectoryLock | undefined> {
  const [row] = await tx<{ timezone: Timezone }[]>`
    select timezone from user_directory where user_id = ${userId} for share`;
  return row;
}

/**
 * lockDirectoryRow for a consumer of another producer's event about her: her row, share
 * locked; undefined when she was deleted (the event then changes nothing). While her
 * registration has not arrived here yet (the two come on different streams, in no set
 * order) it throws RetryLater: the event is redelivered until it has.
 */
export async function lockDirectoryRowForEvent(tx: Tx, userId: string): Promise<DirectoryLock | undefined> {
  const row = await lockDirectoryRow(tx, userId);
  if (row) return row;
  if (await isDeletedUser(tx, userId)) return undefined;
  throw new RetryLater(`user ${userId} is not known here yet`);
}

/** lockDirectoryRow for her own request: 401 when she was deleted, 503 while she is unknown yet. */
export async function lockDirectoryUser(tx: Tx, userId: string): Promise<DirectoryLock> {
  const row = await lockDirectoryRow(tx, userId);
  if (row) return row;
  // Read committed: this statement sees a deletion that committed while we waited.
  throw (await isDeletedUser(tx, userId)) ? accountDeleted() : profileNotReady();
}
