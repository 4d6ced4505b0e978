/**
 * A deletion among 5,000 threads, members and messages (issue #16, growth): every statement
 * of onUserDeleted finds her rows through an index, none reads a table of the community
 * whole, the events' metadata included (events_metadata_user_idx, since 2026-11-29). Each
 * statement is recorded as the deletion sends it and explained with its parameters.
 */
import { randomUUID } from 'node:crypto';
import { connectDatabase, createLogger, databaseName } from '@sleepweave/service-kit';
import { planNodes, rowsRead, type PlanNode } from '@sleepweave/service-kit/testing';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommunityContext } from '../context.ts';
import { startCommunity, type Community } from '../test/helpers.ts';
import { onUserDeleted } from './user-deleted.ts';

const ROWS = 5_000;
const seqScans = (plan: PlanNode): string[] =>
  planNodes(plan).flatMap((node) => (node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : []));

let community: Community;
const her = randomUUID();
const member = randomUUID();
const everyone = randomUUID();
beforeAll(async () => {
  community = await startCommunity();
  const { sql } = community.deps;
  await sql`
    insert into user_directory (user_id, email, first_name, last_name, timezone, role, registered_at)
    values (${her}, 'her@example.com', 'Ines', 'Okafor', 'Europe/London', 'participant', now())`;
  // others' threads, one member and one message each; hers among them
  await sql`
    with o as (select gen_random_uuid() as thread_id, gen_random_uuid() as user_id, gen_random_uuid() as message_id, i from generate_series(1, ${ROWS}) i),
    t as (
      insert into message_threads (id, name, is_direct, pinned, created_by, created_at, activity_at, member_count)
      select thread_id, 'Thread ' || i, false, false, user_id, now(), now(), 1 from o
    ), m as (insert into messages (id, thread_id, sender_id, body, created_at) select message_id, thread_id, user_id, 'Hello', now() from o)
    insert into thread_members (thread_id, user_id, joined_at) select thread_id, user_id, now() from o`;
  // their events, activity and study participation
  await sql`
    insert into events (id, stream_id, stream_position, type, data, metadata)
    select gen_random_uuid(), 'member:' || gen_random_uuid() || ':' || gen_random_uuid(), 1, 'MessagePosted', '{}',
      jsonb_build_object('userId', gen_random_uuid())
    from generate_series(1, ${ROWS})`;
  await sql`insert into member_activity (user_id, last_posted_at) select user_id, now() from thread_members`;
  await sql`insert into study_participants (user_id, study_start_date) select user_id, current_date from thread_members`;
  const thread = randomUUID();
  await sql`
    insert into message_threads (id, name, is_direct, pinned, created_by, created_at, activity_at, member_count)
    values (${thread}, 'Hers', false, false, ${her}, now(), now(), 1)`;
  await sql`insert into thread_members (thread_id, user_id, joined_at) values (${thread}, ${her}, now())`;
  await sql`insert into messages (id, thread_id, sender_id, body, created_at) values (${randomUUID()}, ${thread}, ${her}, 'Mine', now())`;
  // a thread everyone is in (as the welcome thread is), another member with them
  await sql`
    insert into user_directory (user_id, email, first_name, last_name, timezone, role, registered_at)
    values (${member}, 'member@example.com', 'Mia', 'Lund', 'Europe/London', 'participant', now())`;
  await sql`
    insert into message_threads (id, name, is_direct, pinned, created_by, created_at, activity_at, member_count)
    values (${everyone}, 'Welcome', false, true, null, now(), now(), ${ROWS + 1})`;
  await sql`
    insert into thread_members (thread_id, user_id, joined_at)
    select ${everyone}::uuid, user_id, now() from member_activity union all select ${everyone}::uuid, ${member}::uuid, now()`;
  await sql`analyze`;
}, 60_000);
afterAll(async () => {
  await community?.cleanup();
});

/** A client of the community's database that records every statement it sends, with its parameters. */
function recordingClient() {
  const { config } = community.deps;
  const statements: { query: string; params: unknown[] }[] = [];
  const recording = postgres(`${config.DATABASE_URL}/${databaseName(config, 'community')}`, {
    max: 1,
    onnotice: () => undefined,
    transform: { undefined: null },
    debug: (_connection, query, params) => void statements.push({ query, params: [...(params as unknown[])] }),
  });
  return { statements, recording };
}

describe("a user's deletion", () => {
  it('reads none of the community tables whole', async () => {
    const { config } = community.deps;
    const { statements, recording } = recordingClient();
    try {
      const ctx = createCommunityContext({ sql: recording as never, logger: createLogger('test', 'silent'), config });
      await recording.begin((tx) => onUserDeleted(ctx, tx as never, her));
      const explainer = connectDatabase(config.DATABASE_URL, databaseName(config, 'community'), { max: 1 });
      try {
        const scans: string[] = [];
        for (const { query, params } of statements) {
          if (!/^\s*(select|insert|update|delete|with)\b/i.test(query)) continue;
          const [row] = await explainer.unsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
            `explain (format json) ${query}`,
            params as never[],
          );
          for (const table of seqScans(row!['QUERY PLAN'][0].Plan)) scans.push(`${table}: ${query.replace(/\s+/g, ' ').trim()}`);
        }
        expect(statements.length).toBeGreaterThan(8);
        expect(scans.filter((scan) => !scan.startsWith('pg_type:'))).toEqual([]);
      } finally {
        await explainer.end();
      }
    } finally {
      await recording.end();
    }
    expect(await community.deps.sql`select 1 from message_threads where created_by = ${her}`).toHaveLength(0);
  });

  it('counts a thread of 5,000 members she leaves one fewer, without reading its members', async () => {
    const { config, sql } = community.deps;
    // her deletion's statements, recorded in a transaction rolled back, then run again one by
    // one under EXPLAIN ANALYZE (in another, rolled back too) for the rows each reads
    const { statements, recording } = recordingClient();
    const rolledBack = new Error('rolled back');
    const rollingBack = (err: unknown) => {
      if (err !== rolledBack) throw err;
    };
    try {
      const ctx = createCommunityContext({ sql: recording as never, logger: createLogger('test', 'silent'), config });
      await recording
        .begin(async (tx) => {
          await onUserDeleted(ctx, tx as never, member);
          throw rolledBack;
        })
        .catch(rollingBack);
    } finally {
      await recording.end();
    }
    let membersRead = 0;
    await sql
      .begin(async (tx) => {
        for (const { query, params } of statements) {
          if (!/^\s*(select|insert|update|delete|with)\b/i.test(query)) continue;
          const [row] = await tx.unsafe<{ 'QUERY PLAN': [{ Plan: PlanNode }] }[]>(
            `explain (analyze, format json) ${query}`,
            params as never[],
          );
          for (const [table, rows] of rowsRead(planNodes(row!['QUERY PLAN'][0].Plan))) if (table === 'thread_members') membersRead += rows;
        }
        throw rolledBack;
      })
      .catch(rollingBack);
    // her own rows (a membership or two), not the thread's 5,001 (counted again, they were)
    expect(membersRead).toBeLessThan(50);

    await sql.begin((tx) => onUserDeleted(community.context, tx, member));
    const [thread] = await sql<{ member_count: number; members: number }[]>`
      select member_count, (select count(*)::int from thread_members where thread_id = ${everyone}) as members
      from message_threads where id = ${everyone}`;
    expect(thread).toEqual({ member_count: ROWS, members: ROWS });
  });
});
