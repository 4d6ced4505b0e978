import type postgres from 'postgres';

const XID32 = 0xffff_ffffn;

/**
 * The relay's horizon for this database: every transaction of this database whose id is
 * below it has ended, so the events it committed are visible and no event can appear
 * below it later. Other databases' transactions play no part.
 *
 * Two statements, in this order, each its own transaction (autocommit):
 *  1. the snapshot S: its xmax, and the 64-bit ids of the transactions in progress;
 *  2. the 32-bit ids of the transactions in progress in this database (pg_stat_activity,
 *     and prepared transactions).
 * The horizon is the smallest id from 1 that is also in 2, else S's xmax. Proof that every
 * transaction T of this database below it has ended when statement 2 ran: T < xmax(S), so
 * T had its id before S; had T still been running at 2, it would be in 2, and, running at S
 * too, in S's list, making the horizon at most T. (An id 2^32 apart with the same low bits
 * cannot be in progress at the same time.) Sub-transactions write the top-level id.
 *
 * The role the service connects as must see its own database's sessions in
 * pg_stat_activity (the same role, or pg_read_all_stats).
 */
export async function relayHorizon(conn: postgres.ISql): Promise<string> {
  const snapshot = await snapshotStatement(conn);
  return horizonOf(snapshot, await inProgressStatement(conn));
}

/**
 * {@link relayHorizon} on a client of ONE connection (the relay's own): both statements go
 * out together, one round trip; the connection runs them in the order sent, each in its own
 * transaction, as the proof needs. On a pool the second could run first: use relayHorizon.
 */
export async function relayHorizonOnOneConnection(conn: postgres.ISql): Promise<string> {
  const [snapshot, ours] = await Promise.all([snapshotStatement(conn), inProgressStatement(conn)]);
  return horizonOf(snapshot, ours);
}

/** Statement 1: the snapshot, as text (xmin:xmax:xip1,xip2,...). */
async function snapshotStatement(conn: postgres.ISql): Promise<string> {
  const [row] = await conn<{ snapshot: string }[]>`select pg_current_snapshot()::text as snapshot`;
  return row!.snapshot;
}

/** Statement 2: the 32-bit ids of the transactions in progress in this database. */
function inProgressStatement(conn: postgres.ISql): Promise<{ xid: string }[]> {
  return conn<{ xid: string }[]>`
    select backend_xid::text as xid from pg_stat_activity where datname = current_database() and backend_xid is not null
    union all
    select transaction::text from pg_prepared_xacts where database = current_database()`;
}

function horizonOf(snapshot: string, ours: readonly { xid: string }[]): string {
  const [, xmaxText, xipText] = snapshot.split(':') as [string, string, string];
  const inProgress = xipText ? xipText.split(',').map((x) => BigInt(x)) : [];
  const ourLow = new Set(ours.map((row) => BigInt(row.xid)));
  let horizon = BigInt(xmaxText);
  for (const xid of inProgress) if (xid < horizon && ourLow.has(xid & XID32)) horizon = xid;
  return horizon.toString();
}
