import { EVENT_COLUMNS, toRecordedEvent } from './store.ts';
import type { Projection, Sql } from './types.ts';

const PAGE_SIZE = 500;

/**
 * Rebuilds a projection from the events: in one transaction, empties its tables and
 * replays every event it handles in global order (with the state of its `replay`, written
 * at the end). Appends wait meanwhile (SHARE lock on events), so the rebuilt read model is
 * exactly the fold of the events. Returns the number of events replayed.
 */
export async function rebuildProjection(sql: Sql, projection: Projection): Promise<number> {
  return sql.begin(async (tx) => {
    await tx`lock table events in share mode`;
    if (projection.tables.length > 0) {
      await tx`truncate table ${tx(projection.tables)}`;
    }
    if (projection.handles.length === 0) return 0;
    const replay = projection.replay?.start();
    let count = 0;
    let after = '0';
    // Keyset pages, not a cursor: apply() runs queries on the same connection meanwhile.
    for (;;) {
      const rows = await tx<Parameters<typeof toRecordedEvent>[0][]>`
        select ${tx.unsafe(EVENT_COLUMNS)} from events
        where type in ${tx(projection.handles)} and events.global_position > ${after}::bigint
        -- qualified: the select list renames the column to text, and text order put 1000
        -- before 999 (pages lost events and replayed others)
        order by events.global_position
        limit ${PAGE_SIZE}`;
      for (const row of rows) {
        await projection.apply(tx, toRecordedEvent(row), replay);
        count += 1;
      }
      const last = rows.at(-1);
      if (!last || rows.length < PAGE_SIZE) break;
      after = last.global_position;
    }
    if (projection.replay) await projection.replay.end(tx, replay);
    return count;
  }) as Promise<number>;
}
