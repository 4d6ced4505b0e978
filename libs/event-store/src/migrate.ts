import { MIGRATION_LOCK } from './locks.ts';
import type { Sql } from './types.ts';

/**
 * The event store's own tables. Idempotent; safe when several processes of the same
 * service start at once (an advisory transaction lock serialises them).
 */
const DDL = `
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
);
create index if not exists events_relay_order_idx on events (transaction_id, global_position);
create index if not exists events_type_idx on events (type, global_position);
-- A decider that declares evolvesOn loads only those types of its stream (store.ts handle).
create index if not exists events_stream_type_idx on events (stream_id, type, stream_position);

create table if not exists relay_checkpoints (
  name text primary key,
  transaction_id xid8 not null,
  global_position bigint not null,
  updated_at timestamptz not null default now()
);

create table if not exists inbox (
  consumer text not null,
  event_id uuid not null,
  processed_at timestamptz not null default now(),
  primary key (consumer, event_id)
);

-- How far each consumer has read its producer's history (libs/event-store history.ts);
-- completed: it follows the bus. No row: it has not started (a new service, a wiped
-- database, a rebuild), so it catches up first.
create table if not exists consumer_catchups (
  consumer text primary key,
  position text not null,
  completed_at timestamptz,
  updated_at timestamptz not null default now()
);
`;

export async function migrateEventStore(sql: Sql): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK.classId}, ${MIGRATION_LOCK.objId})`;
    await tx.unsafe(DDL);
  });
}
