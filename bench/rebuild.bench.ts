/**
 * npm run bench (rebuild): what `npm run projections:rebuild` costs an event as the data
 * grows, for community's read models, where one row (the welcome thread's: every user is a
 * member) and a few (a day's active members) are what every event changes. A rebuild is one
 * transaction, in which a row updated at each event got slower at each update: the threads'
 * rebuild took 16 s for 10,000 members and 59 s for 20,000 before the projections kept those
 * figures in memory until the rebuild's end (libs/event-store, `replay`). Goal: the cost an
 * event the same at each size.
 *
 * N members join the welcome thread and post once each, on one of 30 days; the events are
 * written with SQL as the commands would write them, and the measured rebuilds are the
 * service's own. Its own database, removed afterwards.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { migrateEventStore, rebuildProjection } from '@sleepweave/event-store';
import { connectDatabase, dropDatabase, ensureDatabase, migrateUserDirectory, runMigrations } from '@sleepweave/service-kit';
import { communityProjections } from '../services/community/src/context.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const SIZES = (process.env.BENCH_REBUILD_SIZES ?? '2500,10000').split(',').map(Number);
const THREAD = '00000000-0000-4000-8000-0000000000aa';

console.log(`rebuild: community's read models, N members of one thread, each with one message (goal: the cost an event flat)`);
const perEvent = new Map<string, number[]>();
for (const members of SIZES) {
  const database = `sw_bench_rebuild_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(DATABASE_URL, database);
  const sql = connectDatabase(DATABASE_URL, database, { max: 2 });
  try {
    await migrateEventStore(sql);
    await migrateUserDirectory(sql);
    await runMigrations(sql, fileURLToPath(new URL('../services/community/migrations', import.meta.url)));
    await sql`
      insert into events (id, stream_id, stream_position, type, data, metadata, created_at)
      values (gen_random_uuid(), ${`thread:${THREAD}`}, 1, 'ThreadCreated',
        ${sql.json({ threadId: THREAD, name: 'Welcome', isDirect: false, pinned: true, createdAt: '2026-11-01T00:00:00.000Z' })}, '{}', now())`;
    await sql`
      insert into events (id, stream_id, stream_position, type, data, metadata, created_at)
      select gen_random_uuid(), 'member:' || u || ':' || ${THREAD}, 1, 'MemberJoined',
        jsonb_build_object('threadId', ${THREAD}::text, 'userId', u::text, 'role', 'member', 'joinedAt', '2026-11-01T00:00:00.000Z'),
        '{}', now()
      from (select gen_random_uuid() as u from generate_series(1, ${members}::int)) joined`;
    await sql`
      insert into events (id, stream_id, stream_position, type, data, metadata, created_at)
      select gen_random_uuid(), stream_id, 2, 'MessagePosted',
        jsonb_build_object('messageId', gen_random_uuid()::text, 'threadId', ${THREAD}::text, 'senderId', data->>'userId',
          'body', 'Linen helps me', 'postedAt',
          to_char((timestamptz '2026-11-01' + random() * interval '30 days') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
        '{}', now()
      from events where type = 'MemberJoined'`;
    await sql`analyze events`;
    const figures: string[] = [];
    for (const projection of communityProjections) {
      const started = performance.now();
      const events = await rebuildProjection(sql, projection);
      if (events === 0) continue;
      const µs = ((performance.now() - started) * 1000) / events;
      perEvent.set(projection.name, [...(perEvent.get(projection.name) ?? []), µs]);
      figures.push(
        `${projection.name} ${events} events ${((performance.now() - started) / 1000).toFixed(2)} s (${µs.toFixed(0)} µs an event)`,
      );
    }
    console.log(`  ${members.toLocaleString('en-US')} members: ${figures.join('; ')}`);
  } finally {
    await sql.end({ timeout: 5 });
    await dropDatabase(DATABASE_URL, database).catch(() => undefined);
  }
}
for (const [name, costs] of perEvent) {
  console.log(
    `  ${name}: an event at ${SIZES.at(-1)} members costs ${(costs.at(-1)! / costs[0]!).toFixed(2)}× what it costs at ${SIZES[0]}`,
  );
}
