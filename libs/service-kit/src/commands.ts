import type { Decider, DomainEvent, EventMetadata, EventStore, ExpectedVersion, HandleResult, Tx } from '@sleepweave/event-store';
import type { FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from './database.ts';
import type { HttpError } from './errors.ts';
import { awaitDirectoryUser, isProfileNotReady, lockDirectoryUser, type DirectoryLock } from './user-directory.ts';

/**
 * The one way a service runs a command: in one transaction, optionally holding the
 * user's directory row (docs/data-protection.md), one or more deciders decide and their
 * events are appended with the inline projections; a domain error becomes the HTTP error
 * the service maps it to.
 */

// Error classes of any constructor shape.
type ErrorClass = abstract new (...args: never[]) => Error;

/** Which domain errors a command may throw and the HTTP error each becomes. */
export type DomainErrors = ReadonlyArray<readonly [ErrorClass, (error: Error) => HttpError]>;

/** What a command needs of the service's context. */
export interface CommandContext {
  sql: Sql;
  store: EventStore;
}

export interface CommandOptions<U extends string | undefined = string | undefined> {
  metadata: EventMetadata;
  /**
   * The user whose data the command writes. First waits (outside the transaction, a few
   * seconds at most) for her registration to reach this service, then share-locks her
   * directory row in the transaction, so a deletion racing the command either waits for
   * it (and removes what it wrote) or has finished (401). 503 while she is still unknown.
   */
  user?: U;
  errors?: DomainErrors;
  /** Join this transaction instead of opening one (a consumer's inbox transaction). */
  tx?: Tx;
}

export interface HandleOptions {
  expectedVersion?: ExpectedVersion;
  now?: Date;
}

export interface CommandScope<U extends string | undefined = undefined> {
  tx: Tx;
  /** Her directory row, when the command runs for a user. */
  user: U extends string ? DirectoryLock : null;
  /** Read the stream, decide, append, project: one decider against one stream. */
  handle<C, S, E extends DomainEvent>(
    streamId: string,
    decider: Decider<C, S, E>,
    command: C,
    options?: HandleOptions,
  ): Promise<HandleResult<S, E>>;
}

function toHttp(err: unknown, errors: DomainErrors | undefined): unknown {
  if (!errors || !(err instanceof Error)) return err;
  const mapping = errors.find(([type]) => err instanceof type);
  return mapping ? mapping[1](err) : err;
}

/** PostgreSQL broke a deadlock by failing this transaction: nothing of it was written. */
const DEADLOCK_DETECTED = '40P01';
/** Times a command is run again after losing a deadlock (then its 500 stands). */
export const DEADLOCK_RETRIES = 2;

function isDeadlock(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === DEADLOCK_DETECTED;
}

/**
 * Runs `work` as one command (see above) and returns what it returns. A command whose
 * transaction PostgreSQL failed to break a deadlock runs again (twice at most, after a few
 * milliseconds): two commands that lock the same rows in different orders (her role
 * changed while she deletes her account, a post while the thread's creator is deleted)
 * then both succeed, instead of one answering 500. Its work must have no effect outside
 * the transaction, as every command's has.
 */
export async function execute<T, U extends string | undefined = undefined>(
  ctx: CommandContext,
  options: CommandOptions<U>,
  work: (scope: CommandScope<U>) => Promise<T>,
): Promise<T> {
  const { metadata, user, errors } = options;
  const run = async (tx: Tx) => {
    const lock = user ? await lockDirectoryUser(tx, user) : null;
    return work({
      tx,
      user: lock as CommandScope<U>['user'],
      handle: (streamId, decider, command, handleOptions = {}) =>
        ctx.store.handle(streamId, decider, command, { ...handleOptions, tx, metadata }),
    });
  };
  const attempt = async (): Promise<T> => {
    if (options.tx) return run(options.tx);
    for (let retry = 0; ; retry++) {
      try {
        return await ctx.store.transaction(run);
      } catch (err) {
        if (!isDeadlock(err) || retry >= DEADLOCK_RETRIES) throw err;
        await sleep(5 + Math.random() * 20 * (retry + 1));
      }
    }
  };
  try {
    try {
      return await attempt();
    } catch (err) {
      // Right after sign-up her registration may still be on its way here: the transaction
      // found no directory row and rolled back before any work; wait for the row outside
      // any transaction, then run once more. (Waiting first would cost every command a
      // lookup for what is nearly always there.)
      if (!user || options.tx || !isProfileNotReady(err)) throw err;
      await awaitDirectoryUser(ctx.sql, user);
      return await attempt();
    }
  } catch (err) {
    throw toHttp(err, errors);
  }
}

/**
 * One decider against one stream, as a command. The command may be built from what the
 * transaction holds (her directory row), e.g. her timezone.
 */
export function runCommand<C, S, E extends DomainEvent, U extends string | undefined = undefined>(
  ctx: CommandContext,
  streamId: string,
  decider: Decider<C, S, E>,
  command: C | ((scope: CommandScope<U>) => C | Promise<C>),
  options: CommandOptions<U> & HandleOptions,
): Promise<HandleResult<S, E>> {
  const { expectedVersion, now, ...rest } = options;
  return execute(ctx, rest, async (scope) => {
    const built = typeof command === 'function' ? await (command as (scope: CommandScope<U>) => C | Promise<C>)(scope) : command;
    return scope.handle(streamId, decider, built, { expectedVersion, now });
  });
}

/** A request's event metadata: its correlation id and the signed-in user. */
export function requestMetadata(request: FastifyRequest): EventMetadata {
  return { correlationId: request.correlationId, userId: request.user?.sub ?? null };
}
