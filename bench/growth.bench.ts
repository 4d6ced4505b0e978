/**
 * npm run bench (growth, issue #16): what the main paths cost as the data grows from 10 to
 * 100,000 rows, each beside its cost at 10 rows. Goal: flat (O(1) or O(log n)) — a post
 * costs the same for her 4,000th message as for her first, the stats and the thread list
 * do not read the messages, every list is one page of an index range.
 * - post: her message in a thread where she already wrote N messages (the command, with
 *   her directory lock, the stream lock, the decider, the append and the projections)
 * - stats: Community Stats, with N members who posted, N threads and N participants
 * - thread list: the first page (100) among N threads, and the page 8/10 of the way in
 * - catch-up: `?after=` a viewer's cursor when one message is new, in a thread of N messages
 * - relay: one new event stored and then read and passed on by the community's relay, with
 *   the N events of her stream stored before it: its insert and the relay's statements, the
 *   publish to NATS left out (it does not depend on the events stored)
 * - journal list: her first page (365) of N entries; sleep-log page: her first page (100) of N nights
 *   (below the page size the page is smaller, so compare from N=1,000 on)
 * - library: the first page (100) of N cards, and the page 8/10 of the way in
 * - session renewal: identity's refresh command (its decider on the session's stream, the
 *   append) on a session renewed N times before, 15 minutes apart (a month is 2,880), and
 *   a second apart (a client that renews at every request)
 * - admin stats: the dashboard's four tiles among N users, from the tallies migration 007's
 *   triggers keep (checked against a count of the rows first)
 * - admin lists (research-export), among N users (four in five enrolled) and N audit entries:
 *   a page of 50 users, first and 9/10 of the way in (a deep page), sorted by joined and by
 *   study compliance, the deep page sorted by name and by last log, a search, the follow-up
 *   filter; the audit trail's first and deep page and her "Who looked at your data"; and the
 *   day's roll-over: every participant's compliance brought up to date for a new day (what
 *   the first sort by compliance, or filter by phase or follow-up, after midnight does for one
 *   time zone; here all at once)
 * The stats read per-day rollups (about 30 rows of members, a row per study start date) and
 * one day's members (the day 30 days back, cut at the hour), never the members or messages;
 * "Discussions Today" counts the threads with a member message today (an index range).
 * The rows are written with SQL as the projections would write them (100,000 appends
 * through the commands would take minutes); the measured paths are the services' own.
 * It uses its own databases and removes them afterwards.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ACTIVE_USER_DAYS } from '@sleepweave/contracts';
import { fileURLToPath } from 'node:url';
import { createEventStore, listeningOptions, migrateEventStore, startRelay } from '@sleepweave/event-store';
import postgres from 'postgres';
import {
  connectDatabase,
  createLogger,
  decodeCursor,
  dropDatabase,
  ensureDatabase,
  migrateUserDirectory,
  runMigrations,
} from '@sleepweave/service-kit';
import type { CommunityConfig } from '../services/community/src/config.ts';
import { createCommunityContext } from '../services/community/src/context.ts';
import { postMessage } from '../services/community/src/memberships/commands.ts';
import { communityStats } from '../services/community/src/stats/queries.ts';
import { listThreads, MessageCursor, threadDetail, ThreadListCursor } from '../services/community/src/threads/queries.ts';
import { listEntriesOf } from '../services/journal/src/entries/queries.ts';
import { LIBRARY_PAGE_LIMIT, listCards } from '../services/library/src/articles/queries.ts';
import {
  listAudit,
  listMyDataAccess,
  listUsers,
  AuditCursor,
  type UserListOptions,
} from '../services/research-export/src/admin/queries.ts';
import { adminStats, compactAdminTallies } from '../services/research-export/src/admin/stats.ts';
import { refreshDueCompliance } from '../services/research-export/src/admin/user-order.ts';
import { listSleepLogs } from '../services/study/src/sleep-logs/queries.ts';
import { sessionDecider } from '../services/identity/src/sessions/business-logic.ts';
import { sessionStreamId } from '../services/identity/src/sessions/session.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432';
const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '10,100,1000,10000,100000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_GROWTH_RUNS ?? 30);
const id = randomBytes(4).toString('hex');
const databases = {
  community: `sw_bench_growth_c_${id}`,
  journal: `sw_bench_growth_j_${id}`,
  study: `sw_bench_growth_s_${id}`,
  research: `sw_bench_growth_r_${id}`,
  library: `sw_bench_growth_l_${id}`,
  identity: `sw_bench_growth_i_${id}`,
};
const logger = createLogger('bench', 'silent');
const migrations = (service: string) => fileURLToPath(new URL(`../services/${service}/migrations`, import.meta.url));

/** Median of `RUNS` timed calls (after two warm-ups), in ms. */
async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  await fn();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

for (const name of Object.values(databases)) await ensureDatabase(DATABASE_URL, name);
const csql = connectDatabase(DATABASE_URL, databases.community, { max: 4 });
const jsql = connectDatabase(DATABASE_URL, databases.journal, { max: 2 });
const ssql = connectDatabase(DATABASE_URL, databases.study, { max: 2 });
const rsql = connectDatabase(DATABASE_URL, databases.research, { max: 2 });
const lsql = connectDatabase(DATABASE_URL, databases.library, { max: 2 });
const isql = connectDatabase(DATABASE_URL, databases.identity, { max: 2 });
try {
  for (const sql of [csql, jsql, ssql, rsql, lsql]) {
    await migrateEventStore(sql);
    await migrateUserDirectory(sql);
  }
  await runMigrations(csql, migrations('community'));
  await runMigrations(jsql, migrations('journal'));
  await runMigrations(ssql, migrations('study'));
  await runMigrations(rsql, migrations('research-export'));
  await runMigrations(lsql, migrations('library'));
  await migrateEventStore(isql);
  const sessions = createEventStore(isql);
  const adminId = randomUUID();

  const her = randomUUID();
  const threadId = randomUUID();
  const stream = `member:${her}:${threadId}`;
  const at = new Date('2026-03-01T12:00:00.000Z'); // "now" of the bench: every row is before it
  for (const sql of [csql, jsql, ssql]) {
    await sql`
      insert into user_directory (user_id, email, first_name, last_name, timezone, role, registered_at)
      values (${her}, 'her@example.com', 'Ines', 'Okafor', 'Europe/London', 'participant', now())`;
  }
  // Her thread, and her membership (the stream's first event).
  await csql`
    insert into message_threads (id, name, is_direct, pinned, created_at, activity_at, member_count)
    values (${threadId}, 'Her thread', false, false, '2025-01-01', '2025-01-01', 1)`;
  await csql`insert into thread_members (thread_id, user_id, joined_at) values (${threadId}, ${her}, '2025-01-01')`;
  await csql`
    insert into events (id, stream_id, stream_position, type, data, created_at)
    values (${randomUUID()}, ${stream}, 1, 'MemberJoined',
      ${csql.json({ threadId, userId: her, role: 'creator', joinedAt: '2025-01-01T00:00:00.000Z' })}, '2025-01-01')`;

  const ctx = createCommunityContext({ sql: csql, logger, config: {} as CommunityConfig });
  const cursorBefore = (iso: string) => decodeCursor(Buffer.from(JSON.stringify([iso, threadId])).toString('base64url'), MessageCursor);
  /** The relay, started for its row only (between the rows it would run a cycle after each post). */
  const startCommunityRelay = () =>
    startRelay({
      connect: (events) => postgres(`${DATABASE_URL}/${databases.community}`, { max: 1, onnotice: () => {}, ...listeningOptions(events) }),
      bus: { publish: async () => undefined },
      source: 'community',
      toIntegration: () => null,
      logger,
      pollIntervalMs: 60_000,
    });
  /** Until the relay has passed the event stored last. */
  const relayed = async (relay: ReturnType<typeof startRelay>) => {
    const [last] = await csql<{ position: string }[]>`select max(global_position)::text as position from events`;
    relay.wake();
    while (relay.status().checkpoint?.globalPosition !== last!.position) await new Promise((resolve) => setImmediate(resolve));
  };

  type Row = { size: number } & Record<string, number>;
  const rows: Row[] = [];
  /** A session renewed `size` times `every` ms apart, then renewed again (median): each run presents the token the one before gave. */
  const renewalAfter = async (size: number, every: number) => {
    const sessionId = randomUUID();
    const sessionStream = sessionStreamId(sessionId);
    const stamp = (i: number) => new Date(at.getTime() - (size - i + 1) * every).toISOString();
    await isql`
      insert into events (id, stream_id, stream_position, type, data, created_at)
      values (${randomUUID()}, ${sessionStream}, 1, 'SessionStarted',
        ${isql.json({ sessionId, userId: her, refreshTokenHash: 'h0', startedAt: stamp(0), expiresAt: '2100-01-01T00:00:00.000Z' })}, ${stamp(0)})`;
    await isql`
      insert into events (id, stream_id, stream_position, type, data, created_at)
      select gen_random_uuid(), ${sessionStream}, i + 1, 'SessionRefreshed',
        jsonb_build_object('sessionId', ${sessionId}::uuid, 'userId', ${her}::uuid, 'refreshTokenHash', 'h' || i,
          'retiredTokenHash', 'h' || (i - 1), 'refreshedAt', to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), t
      from generate_series(1, ${size}::int) i, lateral (select ${at}::timestamptz - make_interval(secs => ${every / 1000} * (${size} - i + 1)) as t) s`;
    let token = `h${size}`;
    let now = at.getTime();
    return median(async () => {
      const next = randomUUID();
      now += every;
      const { events } = await sessions.handle(sessionStream, sessionDecider, {
        type: 'RefreshSession',
        data: { sessionId, presentedHash: token, newRefreshTokenHash: next, now: new Date(now) },
      });
      if (events[0]?.type !== 'SessionRefreshed') throw new Error(`renewal refused: ${JSON.stringify(events)}`);
      token = next;
    });
  };
  let have = 0;
  for (const size of SIZES) {
    const from = have + 1;
    const [current] = await csql<{ version: number }[]>`
      select max(stream_position)::int as version from events where stream_id = ${stream}`;
    const version = current!.version;
    // Her messages in her thread (events of her stream and rows of `messages`), a minute apart, before `at`.
    await csql`
      insert into events (id, stream_id, stream_position, type, data, created_at)
      select m.id, ${stream}, ${version} + i - ${from} + 1, 'MessagePosted',
        jsonb_build_object('messageId', m.id, 'threadId', ${threadId}::uuid, 'senderId', ${her}::uuid,
          'body', 'Linen helped me sleep through the night. ' || i, 'postedAt', m.t), m.t
      from generate_series(${from}::int, ${size}::int) i,
        lateral (select gen_random_uuid() as id, ${at}::timestamptz - make_interval(mins => ${size + 10} - i) as t) m`;
    await csql`
      insert into messages (id, thread_id, sender_id, body, created_at)
      select (data->>'messageId')::uuid, ${threadId}, ${her}, data->>'body', created_at from events
      where stream_id = ${stream} and stream_position > ${version}`;
    // Other members: one thread and one message each, spread over the last 60 days; and participants.
    await csql`
      with o as (
        select gen_random_uuid() as thread_id, gen_random_uuid() as user_id, gen_random_uuid() as message_id,
          ${at}::timestamptz - make_interval(secs => random() * 60 * 86400) as t, i
        from generate_series(${from}::int, ${size}::int) i
      ), t as (
        insert into message_threads (id, name, is_direct, pinned, created_at, activity_at, member_count,
          last_message_id, last_message_preview, last_message_at, last_member_message_at)
        select thread_id, 'Thread ' || i, i % 10 = 0, false, t - interval '1 hour', t, 1, message_id, 'Hello from thread ' || i, t, t from o
      ), m as (
        insert into messages (id, thread_id, sender_id, body, created_at) select message_id, thread_id, user_id, 'Hello from thread ' || i, t from o
      ), tm as (
        insert into thread_members (thread_id, user_id, joined_at) select thread_id, user_id, t from o
      ), sp as (
        insert into study_participants (user_id, study_start_date) select user_id, (t - make_interval(days => (random() * 90)::int))::date from o
      )
      insert into member_activity (user_id, last_posted_at) select user_id, t from o`;
    // The stats' day rollups, as the projections keep them (and migration 003 backfills them).
    await csql`delete from member_activity_days`;
    await csql`
      insert into member_activity_days (day, members)
      select (last_posted_at at time zone 'UTC')::date, count(*) from member_activity group by 1`;
    await csql`delete from study_start_days`;
    await csql`insert into study_start_days (start_date, participants) select study_start_date, count(*) from study_participants group by 1`;
    // Her journal entries (one a day, back from `at`) and her nights.
    await jsql`
      insert into journal_entries (id, user_id, date, affirmation, gratitude, forgiveness, created_at)
      select gen_random_uuid(), ${her}, '2026-03-01'::date - i, 'I am allowed to rest.', 'A cool night.', 'I forgive the hot flash.',
        ${at}::timestamptz - make_interval(days => i)
      from generate_series(${from}::int, ${size}::int) i`;
    await ssql`
      insert into sleep_logs (id, user_id, date, study_day, phase, recommended_material, sleepwear_material, sleep_score,
        total_sleep_minutes, rem_minutes, deep_minutes, resting_hr, avg_hrv, comments, created_at, updated_at)
      select gen_random_uuid(), ${her}, '2026-03-01'::date - i, 1, 'completed', '100% Cotton', '100% Cotton',
        60 + (random() * 35)::int, 420, 90, 70, 58, 40, 'Woke at 3 am, warm.', now(), now()
      from generate_series(${from}::int, ${size}::int) i`;
    // Admin: N users (four in five enrolled, their study started 0 to 59 days before `at`,
    // most nights logged), their activity rows and list keys as the consumers keep them,
    // and N audit entries (reads of a detail; one in fifty an export).
    await rsql`
      insert into user_directory (user_id, email, first_name, last_name, date_of_birth, timezone, hormonal_stage, role, registered_at, updated_at)
      select gen_random_uuid(), 'user' || i || '@example.com', 'First' || i, 'Last' || (i % 997), date '1960-01-01' + (i % 7000),
        (array['Europe/London', 'Europe/Paris', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles'])[1 + i % 6],
        'Menopause', 'participant', ${at}::timestamptz - make_interval(days => 60 + i % 400, secs => i), ${at}
      from generate_series(${from}::int, ${size}::int) i`;
    await rsql`
      insert into research_participants (user_id, research_id, study_start_date, consent_version, consented_at)
      select d.user_id, 'SW-' || substr(md5(d.user_id::text), 1, 12), (${at}::timestamptz at time zone d.timezone)::date - (abs(hashtext(d.email)) % 60), '1.0', ${at}
      from user_directory d
      where abs(hashtext(d.email)) % 5 <> 0 and not exists (select 1 from research_participants p where p.user_id = d.user_id)`;
    await rsql`
      insert into admin_night_activity
        (user_id, nights, study_nights, last_night_date, last_night_in_study, previous_night_date, previous_night_in_study, last_recorded_at)
      select p.user_id, k, k, p.study_start_date + k - 1, true, p.study_start_date + k - 2, true, ${at}
      from research_participants p
      cross join lateral (select least(42, greatest(0, (${at}::timestamptz at time zone 'UTC')::date - p.study_start_date - abs(hashtext(p.research_id)) % 4)) as k) n
      where k > 0 and not exists (select 1 from admin_night_activity a where a.user_id = p.user_id)`;
    await rsql`
      insert into admin_journal_activity (user_id, entries, last_written_at)
      select user_id, 1 + abs(hashtext(email)) % 30, ${at} from user_directory d
      where not exists (select 1 from admin_journal_activity a where a.user_id = d.user_id)`;
    // as migration 003 fills it for those already there (the compliance computed by the refresh)
    await rsql`
      insert into admin_user_order (user_id, timezone, last_night_date, compliance_on)
      select d.user_id, d.timezone, n.last_night_date, case when p.user_id is not null then date '1970-01-01' end
      from user_directory d left join research_participants p on p.user_id = d.user_id
      left join admin_night_activity n on n.user_id = d.user_id
      on conflict (user_id) do nothing`;
    await refreshDueCompliance(rsql, at);
    await rsql`
      insert into admin_audit (id, action, at, actor_id, subject_id)
      select gen_random_uuid(), case when i % 50 = 0 then 'users_exported' else 'participant_viewed' end,
        ${at}::timestamptz - make_interval(secs => ${size * 60} - i * 60),
        ${adminId}::uuid, case when i % 50 = 0 then null else (select user_id from user_directory order by user_id limit 1) end
      from generate_series(${from}::int, ${size}::int) i`;
    // Library cards, three published a minute, every category.
    await lsql`
      insert into library_cards (id, category, title, summary, body_html, body_text, image_path, tags, created_at, updated_at)
      select gen_random_uuid(), (array['Fabric info', 'Sleep tips', 'Research Studies'])[1 + i % 3], 'Card ' || (i % 97), 'Summary',
        '<p>Body</p>', 'Body', '/library/fabric.svg', '{}', ${at}::timestamptz - make_interval(mins => ${size} - i / 3), ${at}
      from generate_series(${from}::int, ${size}::int) i`;
    for (const sql of [csql, jsql, ssql, rsql, lsql]) await sql`vacuum analyze`;
    have = size;

    const row: Row = { size };
    row.post = await median(() =>
      postMessage(ctx, { threadId, userId: her, messageId: randomUUID(), body: 'One more night in linen.', now: new Date() }, {}),
    );
    // The posts above are now newer than `after`: a viewer's catch-up fetches them (and the 5 s before).
    await csql`delete from messages where thread_id = ${threadId} and created_at > ${at}`;
    await postMessage(ctx, { threadId, userId: her, messageId: randomUUID(), body: 'New.', now: new Date() }, {});
    const newest = (
      await csql<{ created_at: Date }[]>`select max(created_at) as created_at from messages where thread_id = ${threadId}`
    )[0]!;
    const viewerHas = cursorBefore(new Date(newest.created_at.getTime() - 1).toISOString());
    row.catchUp = await median(() => threadDetail(csql, threadId, her, { limit: 500, after: viewerHas }));
    const relay = startCommunityRelay();
    try {
      await relayed(relay);
      row.relay = await median(async () => {
        await csql`insert into events (id, stream_id, stream_position, type, data) values (${randomUUID()}, ${`relay:${randomUUID()}`}, 1, 'Noted', '{}')`;
        await relayed(relay);
      });
    } finally {
      await relay.stop();
    }
    const stats = await communityStats(csql, { now: at, timezone: 'Europe/London' });
    const [counted] = await csql<{ active: number; shared: number }[]>`
      select (select count(*)::int from member_activity where last_posted_at > ${at}::timestamptz - interval '30 days') as active,
        (select count(*)::int from study_participants
          where study_start_date <= (${at}::timestamptz at time zone 'Europe/London')::date - 42) as shared`;
    if (stats.activeMembers !== counted!.active || stats.sleepStudiesShared !== counted!.shared) {
      throw new Error(`stats ${JSON.stringify(stats)} differ from the rows counted ${JSON.stringify(counted)}`);
    }
    row.stats = await median(() => communityStats(csql, { now: at, timezone: 'Europe/London' }));
    row.threadList = await median(() => listThreads(csql, her, { limit: 100 }));
    // a deep page: the one after 8/10 of the threads (its cursor from one long page; she sees
    // the public nine tenths of the others' threads, and hers)
    const { next: deepThreads } = await listThreads(csql, her, { limit: Math.max(1, Math.floor(size * 0.8)) });
    if (!deepThreads) throw new Error('the thread list ended before 8/10 of the way');
    const threadCursor = deepThreads ? decodeCursor(deepThreads, ThreadListCursor) : undefined;
    row.threadListDeep = await median(() => listThreads(csql, her, { limit: 100, cursor: threadCursor }));
    row.journal = await median(() => listEntriesOf(jsql, her));
    row.sleepLogs = await median(() => listSleepLogs(ssql, her));
    row.library = await median(() => listCards(lsql, undefined, { limit: LIBRARY_PAGE_LIMIT }));
    const { next: deepCards } = await listCards(lsql, undefined, { limit: Math.max(1, Math.floor(size * 0.8)) });
    row.libraryDeep = await median(() => listCards(lsql, undefined, { limit: LIBRARY_PAGE_LIMIT, cursor: deepCards ?? undefined }));

    // The admin lists: a page of 50, the first and the one 9/10 of the way in (its cursor
    // from one long page; the route clamps `limit` to 100, the query does not).
    const page = (options: Omit<UserListOptions, 'limit'>) => listUsers(rsql, at, { limit: 50, ...options });
    const deep = async (options: Omit<UserListOptions, 'limit'>) => {
      const { next } = await listUsers(rsql, at, { ...options, limit: Math.floor(size * 0.9) });
      return median(() => page({ ...options, cursor: next ?? undefined }));
    };
    // the tiles from the tallies the triggers keep (migration 007), folded as the service does
    // every minute (the seed above added a row for each row it wrote) and vacuumed as
    // autovacuum would next (the bench's PostgreSQL runs without it: the folded rows' pages
    // would stay for the tiles to read), checked against a count. Twice, as the next minute
    // does: the first fold's rows land at the table's end, past the seed's emptied pages,
    // which vacuum cannot cut off until the next fold has put its rows at the start (at
    // 100,000 users the tiles read 2,400 empty pages in between: 0.3–1.4 ms instead of 0.2)
    for (let round = 0; round < 2; round++) {
      await compactAdminTallies(rsql, at);
      await rsql`vacuum admin_tallies`;
    }
    const tiles = await adminStats(rsql, at);
    const [tilesCounted] = await rsql<{ users: number; active: number; nights: number; entries: number }[]>`
      select (select count(*)::int from user_directory) as users,
        (select count(*)::int from user_directory d
           left join admin_night_activity n on n.user_id = d.user_id
           left join admin_journal_activity j on j.user_id = d.user_id
         where greatest(n.last_recorded_at, j.last_written_at) > ${at}::timestamptz - make_interval(days => ${ACTIVE_USER_DAYS})) as active,
        (select coalesce(sum(nights), 0)::int from admin_night_activity) as nights,
        (select coalesce(sum(entries), 0)::int from admin_journal_activity) as entries`;
    const { users, active, nights, entries } = tilesCounted!;
    if (
      tiles.totalUsers !== users ||
      tiles.activeUsers !== active ||
      tiles.totalSleepLogs !== nights ||
      tiles.totalJournalEntries !== entries
    ) {
      throw new Error(`admin stats ${JSON.stringify(tiles)} differ from the rows counted ${JSON.stringify(tilesCounted)}`);
    }
    row.adminStats = await median(() => adminStats(rsql, at));
    row.adminJoined = await median(() => page({ sort: 'joined', order: 'desc' }));
    row.adminJoinedDeep = await deep({ sort: 'joined', order: 'desc' });
    row.adminCompliance = await median(() => page({ sort: 'compliance', order: 'asc' }));
    row.adminComplianceDeep = await deep({ sort: 'compliance', order: 'asc' });
    row.adminNameDeep = await deep({ sort: 'name', order: 'asc' });
    row.adminLastLogDeep = await deep({ sort: 'lastLog', order: 'asc' });
    row.adminSearch = await median(() => page({ sort: 'joined', order: 'desc', q: 'last99' }));
    row.adminFollowUp = await median(() => page({ sort: 'lastLog', order: 'asc', notLogged: true }));
    row.audit = await median(() => listAudit(rsql, { limit: 50 }));
    const { next: deepAudit } = await listAudit(rsql, { limit: Math.floor(size * 0.9) });
    const auditCursor = deepAudit ? decodeCursor(deepAudit, AuditCursor) : undefined;
    row.auditDeep = await median(() => listAudit(rsql, { limit: 50, cursor: auditCursor }));
    const [subject] = await rsql<{ user_id: string }[]>`select user_id from user_directory order by user_id limit 1`;
    row.myDataAccess = await median(() => listMyDataAccess(rsql, subject!.user_id, { limit: 50 }));
    // the day's roll-over, as if midnight had just passed in every time zone at once
    const rollovers: number[] = [];
    for (let i = 0; i < 3; i++) {
      await rsql`update admin_user_order set compliance_on = compliance_on - 1 where compliance_on is not null`;
      const started = performance.now();
      await refreshDueCompliance(rsql, at);
      rollovers.push(performance.now() - started);
    }
    row.rollover = rollovers.sort((a, b) => a - b)[1]!;
    row.renewal = await renewalAfter(size, 15 * 60_000);
    row.renewalLoop = await renewalAfter(size, 1_000);
    rows.push(row);
  }

  const paths: [keyof Row, string][] = [
    ['post', 'post (her Nth message in a thread)'],
    ['catchUp', 'new message to a viewer (?after=)'],
    ['relay', 'relay: a new event read and passed on'],
    ['stats', 'community stats'],
    ['threadList', 'thread list, first page (100)'],
    ['threadListDeep', 'thread list, page at 8/10'],
    ['journal', 'journal list, first page (365)'],
    ['sleepLogs', 'sleep-log list, first page (100)'],
    ['library', 'library cards, first page (100)'],
    ['libraryDeep', 'library cards, page at 8/10'],
    ['adminStats', 'admin stats (the four tiles)'],
    ['adminJoined', 'admin users by joined, first page (50)'],
    ['adminJoinedDeep', 'admin users by joined, page at 9/10'],
    ['adminCompliance', 'admin users by compliance, first page'],
    ['adminComplianceDeep', 'admin users by compliance, at 9/10'],
    ['adminNameDeep', 'admin users by name, at 9/10'],
    ['adminLastLogDeep', 'admin users by last log, at 9/10'],
    ['adminSearch', 'admin users, search (first page)'],
    ['adminFollowUp', 'admin users, not logged 3+ days'],
    ['audit', 'audit trail, first page (50)'],
    ['auditDeep', 'audit trail, page at 9/10'],
    ['myDataAccess', 'who looked at her data, first page'],
    ['renewal', 'a session renewal after N renewals'],
    ['renewalLoop', 'the same, renewed every second'],
    ['rollover', "a new day: N users' compliance"],
  ];
  const base = rows[0]!;
  console.log(
    `growth: median of ${RUNS} runs, ms (× the ${base.size}-row figure); N = her messages, members, threads, participants, entries, nights, admin users, audit entries and library cards`,
  );
  console.log(['path'.padEnd(38), ...rows.map((r) => `N=${r.size.toLocaleString('en-US')}`.padStart(18))].join(''));
  for (const [key, label] of paths) {
    const cells = rows.map((r) => `${r[key]!.toFixed(2)} (×${(r[key]! / base[key]!).toFixed(1)})`.padStart(18));
    console.log([label.padEnd(38), ...cells].join(''));
  }
} finally {
  await Promise.all([csql.end(), jsql.end(), ssql.end(), rsql.end(), lsql.end(), isql.end()]);
  for (const name of Object.values(databases)) await dropDatabase(DATABASE_URL, name);
}
