import type { Bus } from '@sleepweave/bus';
import type postgres from 'postgres';
import { integrationEvents, type EventEnvelope, type IntegrationEventData, type IntegrationEventType } from '@sleepweave/contracts';
import type { Logger } from 'pino';
import { relayHorizonOnOneConnection } from './horizon.ts';
import { relayLock } from './locks.ts';
import { DEFAULT_NOTIFY_CHANNEL, EVENT_COLUMNS, toRecordedEvent } from './store.ts';
import type { RecordedEvent, Sql } from './types.ts';

/** What the relay's own connection reports: a notification, and the loss of the connection. */
export interface ConnectionEvents {
  onnotify: (channel: string, payload: string) => void;
  onclose: () => void;
}

/**
 * Options of a client whose own connection LISTENs (the relay's: on the same backend as
 * its lock) and reports losing it. postgres.js hands every notification of a connection
 * to its `onnotify` option (src/index.js), which its types omit; `sql.listen` instead opens
 * a second connection that, when it fails to LISTEN again after a reconnect, gives up for
 * good (relay-restart.int.spec.ts proves the relay's way). Such a connection is not
 * recycled: its LISTEN would go with it.
 */
export function listeningOptions(events: ConnectionEvents): postgres.Options<Record<string, never>> {
  return {
    onnotify: events.onnotify,
    onclose: () => events.onclose(),
    max_lifetime: null,
    idle_timeout: null,
  } as unknown as postgres.Options<Record<string, never>>;
}

export interface RelayOptions {
  /**
   * Opens the relay's own connection (a client of one connection, with
   * {@link listeningOptions} of these events): its lock, LISTEN, checkpoint and reads. Not
   * one reserved from the pool: a reserved connection that loses its backend never
   * recovers, while a client reconnects on its next query.
   */
  connect: (events: ConnectionEvents) => Sql;
  bus: Pick<Bus, 'publish'>;
  /** The producing service, e.g. `identity` (the envelopes' `source`). */
  source: string;
  /** Maps a stored event to the integration event to publish; null keeps it private. */
  toIntegration: (event: RecordedEvent) => EventEnvelope | null;
  logger: Logger;
  /** Checkpoint and lock name (default `default`). */
  name?: string;
  /** Fallback poll when no NOTIFY arrives (default 5000 ms). */
  pollIntervalMs?: number;
  /** Events read per query (default 200). */
  batchSize?: number;
  notifyChannel?: string;
  /**
   * How often a standby relay tries to take the lock (default 250 ms: how soon it takes
   * over). Sooner than the publisher, killed, is back (its restart waits 0.5 s, then it
   * starts): at a second, a restart on a fast machine sometimes took the lock first, and
   * the events waited for it.
   */
  lockRetryMs?: number;
}

export interface RelayStatus {
  /** This process holds the lock and publishes (a standby instance does not). */
  active: boolean;
  /** The last event published or passed over (null before the first cycle). */
  checkpoint: { transactionId: string; globalPosition: string } | null;
  /** Committed events wait behind an older transaction of this database that is still open. */
  heldBack: boolean;
  /** The last cycle failed (database or bus unreachable); it is being retried. */
  failing: boolean;
  /** When the relay last finished a cycle (epoch ms; 0: never). */
  lastCycleAt: number;
}

export interface Relay {
  /** Stops after the current batch and releases the lock. */
  stop(): Promise<void>;
  /**
   * Runs a cycle now, even in the back-off after a failed one (the bus is back: the service
   * calls it on NATS's reconnect). A NOTIFY runs one too, but waits for a back-off to end.
   */
  wake(): void;
  status(): RelayStatus;
}

/**
 * Builds an integration envelope from a stored event: id = event id, subject = stream id.
 * The data is checked against its contract: a mapping that drifted from the contract
 * throws (and the relay retries loudly) instead of publishing what consumers would drop.
 */
export function toEnvelope<T extends IntegrationEventType>(
  event: RecordedEvent,
  options: { source: string; type: T; version?: number; data: IntegrationEventData<T> },
): EventEnvelope<T> {
  const data = integrationEvents[options.type].parse(options.data);
  return {
    id: event.id,
    type: options.type,
    version: options.version ?? 1,
    source: options.source,
    subject: event.streamId,
    time: event.createdAt.toISOString(),
    correlationId: event.metadata.correlationId ?? null,
    causationId: event.metadata.causationId ?? null,
    data,
  } as EventEnvelope<T>;
}

interface Checkpoint {
  transactionId: string;
  globalPosition: string;
}

type EventRow = Parameters<typeof toRecordedEvent>[0];

/**
 * While events wait behind an open older transaction of this database, look again after
 * this many milliseconds, doubling up to the maximum (its commit usually NOTIFYs sooner).
 */
const HELD_BACK_FIRST_RETRY_MS = 1;
const HELD_BACK_MAX_RETRY_MS = 100;

/**
 * After a failed cycle (database or bus unreachable) the relay tries again after 250 ms,
 * doubling up to 1 s: one connection attempt a second costs nothing, and a relay that
 * slept longer would hold back every event (a logout among them) long after the outage.
 */
function retryDelayMs(failures: number): number {
  return Math.min(1_000, 250 * 2 ** Math.min(failures - 1, 10));
}

/** While failures go on, they are logged again at most this often. */
const FAILURE_LOG_INTERVAL_MS = 30_000;

/**
 * The outbox relay: publishes committed events to the bus in commit-safe order.
 *
 * Order and safety: events are read in (transaction_id, global_position) order, strictly
 * after the checkpoint, and only those whose transaction id is below this database's
 * horizon ({@link relayHorizon}). Every transaction of this database below it has ended,
 * and a transaction that has not written yet gets a larger id, so nothing can later appear
 * before the checkpoint: a slow transaction holding an earlier global position is waited
 * for, never skipped. Transactions of other databases on the same server never delay it.
 *
 * Delivery is at least once: the checkpoint is saved after each batch (and after the
 * last success when a publish fails); a re-publish carries the same msgID (the event id),
 * which JetStream de-duplicates, and consumers de-duplicate through their inbox.
 *
 * One publisher per database and name: a session advisory lock held by the relay's own
 * connection; a standby instance retries the lock every quarter of a second. The statements that read
 * events and save the checkpoint only act while that very backend holds the lock: after a
 * database restart the client reconnects on a new backend, which holds nothing until the
 * next cycle takes the lock again, and LISTENs again. Errors are logged and retried
 * within a second; the relay never throws.
 */
export function startRelay(options: RelayOptions): Relay {
  const { bus, toIntegration } = options;
  const name = options.name ?? 'default';
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const batchSize = options.batchSize ?? 200;
  const channel = options.notifyChannel ?? DEFAULT_NOTIFY_CHANNEL;
  const lockRetryMs = options.lockRetryMs ?? 250;
  const lock = relayLock(name);
  const log = options.logger.child({ component: 'relay', relay: name, source: options.source });

  const abort = new AbortController();
  let isActive = false;
  let checkpoint: Checkpoint | null = null;
  let heldBack = false;
  let failing = false;
  let lastCycleAt = 0;

  // Wake-up: a NOTIFY or wake() resolves the current wait; a wake during a batch is remembered.
  let wakePending = false;
  let resolveWait: (() => void) | null = null;
  const wake = (): void => {
    wakePending = true;
    const resolve = resolveWait;
    resolveWait = null;
    resolve?.();
  };
  const waitForWake = (ms: number): Promise<void> => {
    if (wakePending || abort.signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        if (resolveWait === finish) resolveWait = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      resolveWait = finish;
    });
  };
  /**
   * After a failed cycle: waits `ms`, cut short by stop() and by wake() from outside (the
   * bus is back: the next attempt is made at once, not up to a second later). A NOTIFY does
   * not bring it forward: under write traffic one comes with every commit, and a relay that
   * cannot publish (the bus down, an event its mapping refuses) would otherwise re-read its
   * batch and fail again on every write, not every 250 ms to 1 s.
   */
  let endBackOff: (() => void) | null = null;
  /** wake() from outside since the cycle began: a cycle that then fails is tried again at once. */
  let wokenFromOutside = false;
  const backOff = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (wokenFromOutside || abort.signal.aborted) {
        wokenFromOutside = false;
        return resolve();
      }
      const finish = () => {
        clearTimeout(timer);
        abort.signal.removeEventListener('abort', finish);
        if (endBackOff === finish) endBackOff = null;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      abort.signal.addEventListener('abort', finish, { once: true });
      endBackOff = finish;
    });
  // Its own connection: a NOTIFY on the channel (an append committed) starts a cycle, and
  // so does losing the connection: the cycle fails, and retries until the database is back.
  const conn = options.connect({
    onnotify: (notified) => {
      if (notified === channel) wake();
    },
    onclose: () => {
      if (!abort.signal.aborted) wake();
    },
  });

  /** True when this backend holds the relay's lock (a condition for the statements that act). */
  const lockHeld = () => conn`
    exists (
      select 1 from pg_locks
      where locktype = 'advisory' and pid = pg_backend_pid() and granted
        and classid = ${lock.classId} and objid = ${lock.objId} and objsubid = 2
    )`;

  /**
   * This database's horizon when this relay holds the lock, taking it if free; null when
   * another instance holds it. The check and the horizon's statements go out together (one
   * round trip; a horizon read before the lock is taken is only older, never wrong). Taking
   * the lock means this backend is new to the relay (first cycle, or the client reconnected
   * after a database restart): it LISTENs there too.
   */
  async function holdLock(): Promise<string | null> {
    const [[held], horizon] = await Promise.all([
      conn<{ held: boolean }[]>`select ${lockHeld()} as held`,
      relayHorizonOnOneConnection(conn),
    ]);
    if (held?.held) return horizon;
    const [row] = await conn<{ locked: boolean }[]>`
      select pg_try_advisory_lock(${lock.classId}, ${lock.objId}) as locked`;
    if (row?.locked !== true) return null;
    await conn.unsafe(`listen "${channel.replaceAll('"', '""')}"`);
    return horizon;
  }

  async function loadCheckpoint(): Promise<Checkpoint> {
    const [row] = await conn<{ transaction_id: string; global_position: string }[]>`
      select transaction_id::text as transaction_id, global_position::text as global_position
      from relay_checkpoints where name = ${name}`;
    return row ? { transactionId: row.transaction_id, globalPosition: row.global_position } : { transactionId: '0', globalPosition: '0' };
  }

  async function saveCheckpoint(cp: Checkpoint): Promise<void> {
    // Never moves backwards, whatever happens; only while this backend holds the lock.
    await conn`
      insert into relay_checkpoints (name, transaction_id, global_position, updated_at)
      select ${name}, ${cp.transactionId}::xid8, ${cp.globalPosition}::bigint, now()
      where ${lockHeld()}
      on conflict (name) do update
        set transaction_id = excluded.transaction_id,
            global_position = excluded.global_position,
            updated_at = now()
        where (relay_checkpoints.transaction_id, relay_checkpoints.global_position)
            < (excluded.transaction_id, excluded.global_position)`;
  }

  /**
   * Publishes one batch below `horizon`; returns whether the batch was full and whether
   * events wait behind an open transaction.
   */
  async function relayBatch(from: Checkpoint, horizon: string): Promise<{ full: boolean; heldBack: boolean }> {
    // Only what lies below the horizon is read: events of later transactions wait behind
    // an older one still open, and reading them (their JSON decoded) on every quick retry
    // cost a busy service more than publishing did.
    const rows = await conn<EventRow[]>`
      select ${conn.unsafe(EVENT_COLUMNS)}
      from events
      where (events.transaction_id, events.global_position) > (${from.transactionId}::xid8, ${from.globalPosition}::bigint)
        and events.transaction_id < ${horizon}::xid8
        and ${lockHeld()}
      -- qualified: the select list renames both columns to text
      order by events.transaction_id, events.global_position
      limit ${batchSize}`;

    let done: Checkpoint | null = null;
    let published = 0;
    const saved = (cp: Checkpoint) => {
      checkpoint = cp;
      if (published > 0) log.debug({ published, checkpoint: cp }, 'relayed events');
    };
    // The batch's publishes go out together and are awaited together: NATS keeps one
    // connection's messages in order, and the server stores and acknowledges several a
    // wake-up instead of one per round trip (docs/performance.md). The checkpoint moves to
    // the last event of the unbroken run that landed; a failure is thrown after it is saved,
    // and what follows it is published again on the retry (JetStream drops a re-published
    // msgID within its window, and consumers apply an event once through their inbox).
    let failure: { error: unknown } | null = null;
    const events: RecordedEvent[] = [];
    const publishes: (Promise<void> | null)[] = [];
    for (const row of rows) {
      let event: RecordedEvent;
      let envelope: EventEnvelope | null;
      try {
        event = toRecordedEvent(row);
        envelope = toIntegration(event);
      } catch (error) {
        failure = { error };
        break;
      }
      events.push(event);
      publishes.push(envelope ? bus.publish(envelope) : null);
    }
    const outcomes = await Promise.allSettled(publishes);
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.status === 'rejected') {
        failure = { error: outcome.reason };
        break;
      }
      if (publishes[index]) published += 1;
      const event = events[index]!;
      done = { transactionId: event.transactionId, globalPosition: event.globalPosition };
    }
    if (failure) {
      // What was published before the failure is not published again.
      if (done) {
        await saveCheckpoint(done);
        saved(done);
      }
      throw failure.error;
    }
    const full = rows.length === batchSize;
    // One round trip: the checkpoint saved and, after a short batch, whether events wait
    // behind an open transaction (the horizon only moves forward, so every event at or past
    // it is still to publish). Asked as the newest transaction's id, one step down the
    // index's end: `exists (... where transaction_id >= $1)` read the whole table under the
    // generic plan PostgreSQL keeps for it after a few runs (plans.int.spec.ts).
    const [, waiting] = await Promise.all([
      done ? saveCheckpoint(done) : undefined,
      full
        ? undefined
        : conn<{ held: boolean }[]>`
        select coalesce((select max(events.transaction_id) from events) >= ${horizon}::xid8, false) as held`,
    ]);
    if (done) saved(done);
    return { full, heldBack: waiting?.[0]?.held === true };
  }

  const loop = (async () => {
    let failures = 0;
    let failingSince = 0;
    let failureLoggedAt = 0;
    let heldBackRetryMs = HELD_BACK_FIRST_RETRY_MS;
    while (!abort.signal.aborted) {
      wokenFromOutside = false;
      try {
        const horizon = await holdLock();
        if (horizon === null) {
          if (isActive) log.warn('relay lost its lock; standing by');
          isActive = false;
          checkpoint = null;
          await waitForWake(lockRetryMs);
          wakePending = false;
          continue;
        }
        if (!isActive || !checkpoint) {
          checkpoint = await loadCheckpoint();
          if (!isActive) log.info({ checkpoint }, 'relay is the active publisher');
          isActive = true;
        }
        // Clear before reading: a NOTIFY that arrives during the batch triggers another cycle.
        wakePending = false;
        let result = await relayBatch(checkpoint, horizon);
        while (result.full && !abort.signal.aborted && checkpoint) {
          result = await relayBatch(checkpoint, await relayHorizonOnOneConnection(conn));
        }
        if (failures > 0) log.info({ failures, failedForMs: Date.now() - failingSince }, 'relay works again');
        failures = 0;
        failing = false;
        heldBack = result.heldBack;
        lastCycleAt = Date.now();
        if (result.heldBack) {
          await waitForWake(Math.min(heldBackRetryMs, pollIntervalMs));
          heldBackRetryMs = Math.min(heldBackRetryMs * 2, HELD_BACK_MAX_RETRY_MS);
        } else {
          heldBackRetryMs = HELD_BACK_FIRST_RETRY_MS;
          await waitForWake(pollIntervalMs);
        }
      } catch (err) {
        if (abort.signal.aborted) break;
        failures += 1;
        failing = true;
        const now = Date.now();
        if (failures === 1) failingSince = now;
        const retryInMs = retryDelayMs(failures);
        if (failures === 1 || now - failureLoggedAt >= FAILURE_LOG_INTERVAL_MS) {
          failureLoggedAt = now;
          log.error({ err, failures, retryInMs }, 'relay cycle failed; retrying');
        }
        // Take the lock and re-read the checkpoint next time (the client reconnects by itself).
        checkpoint = null;
        isActive = false;
        await backOff(retryInMs);
        wakePending = false;
      }
    }
  })();

  return {
    wake() {
      wokenFromOutside = true;
      wake();
      endBackOff?.();
    },
    status: () => ({ active: isActive, checkpoint, heldBack, failing, lastCycleAt }),
    async stop() {
      if (!abort.signal.aborted) {
        abort.abort();
        wake();
      }
      await loop;
      isActive = false;
      // Ending the connection releases the lock (a standby takes over within its lockRetryMs).
      await conn.end({ timeout: 5 }).catch(() => undefined);
    },
  };
}

/**
 * How long the next event to publish has been waiting, read from the database (so every
 * instance of a service answers the same, whichever holds the relay's lock): milliseconds
 * since it was stored, or null when every committed event has been relayed.
 */
export async function relayBacklogMs(sql: Sql, name = 'default'): Promise<number | null> {
  const [row] = await sql<{ waiting_ms: number | null }[]>`
    select (
      select (extract(epoch from clock_timestamp() - events.created_at) * 1000)::float8
      from events
      where (events.transaction_id, events.global_position)
          > (coalesce(checkpoint.transaction_id, '0'::xid8), coalesce(checkpoint.global_position, 0))
      order by events.transaction_id, events.global_position
      limit 1
    ) as waiting_ms
    from (select 1) as one
    left join relay_checkpoints as checkpoint on checkpoint.name = ${name}`;
  return row?.waiting_ms ?? null;
}
