import { setTimeout as sleep } from 'node:timers/promises';
import { MIGRATION_LOCK } from './locks.ts';
import type { Sql } from './types.ts';

/**
 * The event store's own tables and indexes, each with the DDL that makes it, run only for
 * what is missing: even `create index if not exists` takes a lock on its table that waits
 * for the appends in progress and holds off new ones.
 */
const SCHEMA: readonly { name: string; ddl: string }[] = [
  {
    name: 'events',
    ddl: `
      create table if not exists events (
        id uuid primary key,
        stream_id text not null,
        stream_position integer not null,
        global_position bigserial not null unique,
        transaction_id xid8 not null default pg_current_xact_id(),
        type text not null,
        data jsonb not null,
        metadata jsonb not null default '{}'::jsonb,
        created_at timestamptz not null default now(),
        constraint events_stream_position_unique unique (stream_id, stream_position)
      )`,
  },
  { name: 'events_relay_order_idx', ddl: 'create index if not exists events_relay_order_idx on events (transaction_id, global_position)' },
  { name: 'events_type_idx', ddl: 'create index if not exists events_type_idx on events (type, global_position)' },
  {
    name: 'relay_checkpoints',
    ddl: `
      create table if not exists relay_checkpoints (
        name text primary key,
        transaction_id xid8 not null,
        global_position bigint not null,
        updated_at timestamptz not null default now()
      )`,
  },
  {
    name: 'inbox',
    ddl: `
      create table if not exists inbox (
        consumer text not null,
        event_id uuid not null,
        processed_at timestamptz not null default now(),
        primary key (consumer, event_id)
      )`,
  },
  // How far each consumer has read its producer's history (libs/event-store history.ts);
  // completed: it follows the bus. No row: it has not started (a new service, a wiped
  // database, a rebuild), so it catches up first.
  {
    name: 'consumer_catchups',
    ddl: `
      create table if not exists consumer_catchups (
        consumer text primary key,
        position text not null,
        completed_at timestamptz,
        updated_at timestamptz not null default now()
      )`,
  },
  // When it last read that history to the end, reading it again (history.ts catchUp): null
  // for a checkpoint written before consumers read it again, which is then moved on.
  {
    name: 'consumer_catchups.reread_at',
    ddl: 'alter table consumer_catchups add column if not exists reread_at timestamptz',
  },
];

/** The names of SCHEMA that are not in the database (`table.column` for a column added later). */
async function missingObjects(sql: Sql): Promise<Set<string>> {
  const names = SCHEMA.map((object) => object.name);
  const rows = await sql<{ name: string }[]>`
    select name from unnest(${names}::text[]) as name
    where case when strpos(name, '.') = 0 then to_regclass(name) is null
      else not exists (
        select from pg_attribute
        where attrelid = to_regclass(split_part(name, '.', 1)) and attname = split_part(name, '.', 2) and not attisdropped)
    end`;
  return new Set(rows.map((row) => row.name));
}

/**
 * Indexes added after the first release. On a store that already holds events, `create
 * index` in the migration's transaction would hold off every append until it is built
 * (seconds for millions of events): these are built concurrently instead, outside any
 * transaction, writes going on meanwhile.
 */
export const CONCURRENT_INDEXES: readonly { name: string; definition: string }[] = [
  // A decider that declares evolvesOn loads only those types of its stream (store.ts handle).
  { name: 'events_stream_type_idx', definition: 'on events (stream_id, type, stream_position)' },
  // What the inbox's pruning deletes, oldest first (inbox.ts pruneInbox).
  { name: 'inbox_processed_at_idx', definition: 'on inbox (processed_at)' },
  // A deleted user's streams, by the prefix of their ids (store.ts deleteStreamsByPrefix):
  // byte order, which a prefix is a range of whatever the database's collation (under
  // en_US, the unique index's order, it is not, and the delete read every event).
  { name: 'events_stream_prefix_idx', definition: 'on events (stream_id text_pattern_ops)' },
  // A deleted user's id in the metadata of events not of her streams (store.ts
  // eraseUserFromMetadata): found by reading every event before (1M events: 0.33 s, in the
  // deletion's transaction, in each service). About 2 µs more an append.
  { name: 'events_metadata_user_idx', definition: "on events ((metadata ->> 'userId'))" },
];

/** A later index's state: missing, valid, or invalid (left by an interrupted concurrent build). */
async function indexState(q: Sql, name: string): Promise<'missing' | 'valid' | 'invalid'> {
  const [row] = await q<{ valid: boolean }[]>`
    select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
    where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace`;
  return row === undefined ? 'missing' : row.valid ? 'valid' : 'invalid';
}

async function upToDate(q: Sql): Promise<boolean> {
  if ((await missingObjects(q)).size > 0) return false;
  for (const index of CONCURRENT_INDEXES) if ((await indexState(q, index.name)) !== 'valid') return false;
  return true;
}

/**
 * Brings the event store's schema up to date, touching only what is missing. Processes
 * starting together take turns through one session lock, asked for with
 * pg_try_advisory_lock every 100 ms: a process waiting inside a statement or a transaction
 * would hold a snapshot, which a concurrent index build waits for while the waiter waits
 * for the lock (a deadlock). The tables and the first indexes are made in one transaction;
 * a later index concurrently, outside any (an invalid one left by an interrupted build is
 * dropped and built again).
 */
export async function migrateEventStore(sql: Sql): Promise<void> {
  if (await upToDate(sql)) return;
  const connection = await sql.reserve();
  const q = connection as unknown as Sql;
  try {
    for (;;) {
      const [row] = await connection<{ locked: boolean }[]>`
        select pg_try_advisory_lock(${MIGRATION_LOCK.classId}, ${MIGRATION_LOCK.objId}) as locked`;
      if (row?.locked) break;
      await sleep(100);
    }
    try {
      // another process may have done it while this one waited
      const missing = await missingObjects(q);
      if (missing.size > 0) {
        await connection`begin`;
        try {
          for (const object of SCHEMA) if (missing.has(object.name)) await connection.unsafe(object.ddl);
          await connection`commit`;
        } catch (err) {
          await connection`rollback`.catch(() => undefined);
          throw err;
        }
      }
      for (const index of CONCURRENT_INDEXES) {
        const state = await indexState(q, index.name);
        if (state === 'valid') continue;
        if (state === 'invalid') await connection.unsafe(`drop index concurrently if exists ${index.name}`);
        await connection.unsafe(`create index concurrently ${index.name} ${index.definition}`);
      }
    } finally {
      await connection`select pg_advisory_unlock(${MIGRATION_LOCK.classId}, ${MIGRATION_LOCK.objId})`;
    }
  } finally {
    connection.release();
  }
}
