/**
 * The admin dashboard's routes against real PostgreSQL and NATS: who may call them, the
 * list's search, paging, sorts and filters, a user's detail, the CSV exports, and the audit
 * trail (reads, exports and role changes recorded as events, listed for admins and for her).
 */
import { randomUUID } from 'node:crypto';
import { testEnvelope } from '@sleepweave/bus/testing';
import {
  addDays,
  calendarDateIn,
  currentNight,
  nightEndTime,
  type AdminAuditList,
  type AdminUserDetail,
  type AdminUserList,
  type MyDataAccessList,
} from '@sleepweave/contracts';
import { createLogger, databaseName } from '@sleepweave/service-kit';
import { rebuildAndSnapshot, snapshotTables } from '@sleepweave/service-kit/testing';
import postgres from 'postgres';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, consent, night, startResearchExport, waitUntil, type ResearchExport } from '../test/helpers.ts';
import { createResearchExportContext } from '../context.ts';
import { onUserDeleted } from '../users/user-deleted.ts';
import { listUsers } from './queries.ts';

let service: ResearchExport;
beforeAll(async () => {
  service = await startResearchExport();
});
afterAll(async () => {
  await service?.cleanup();
});

const ZONE = 'Europe/London';
/** Her current night, from which the admin list counts her study day (a date behind her calendar's until 04:00). */
const tonight = () => currentNight(ZONE, new Date());

/** A user as identity announces her; resolves once the service knows her. */
async function addUser(
  profile: { firstName?: string; lastName: string; email?: string; registeredAt?: Date; dateOfBirth?: string | null } & {
    role?: 'participant' | 'admin';
  },
) {
  const userId = randomUUID();
  await service.producers.publish(
    testEnvelope('identity.user.registered', {
      userId,
      email: profile.email ?? `${profile.lastName.toLowerCase()}.${userId.slice(0, 8)}@example.com`,
      firstName: profile.firstName ?? 'Ines',
      lastName: profile.lastName,
      dateOfBirth: profile.dateOfBirth === undefined ? '1971-06-01' : profile.dateOfBirth,
      timezone: ZONE,
      hormonalStage: 'Menopause',
      profileImageUrl: null,
      role: profile.role ?? 'participant',
      registeredAt: (profile.registeredAt ?? new Date()).toISOString(),
    }),
  );
  await waitUntil(async () => (await service.deps.sql`select 1 from user_directory where user_id = ${userId}`).length === 1, 'registered');
  return userId;
}

/** Nights on study days `days` of a study that started `startDaysAgo` days ago (tonight is night startDaysAgo + 1). */
async function logNights(userId: string, startDaysAgo: number, days: number[], recordedAt?: Date) {
  const start = addDays(tonight(), -startDaysAgo);
  await consent(service, userId, start);
  for (const day of days) {
    const date = addDays(start, day - 1);
    const phase = day <= 14 ? 'polyester' : day <= 28 ? 'washout' : day <= 42 ? 'linen' : 'completed';
    await service.producers.publish(
      testEnvelope(
        'study.sleep_log.recorded',
        night(userId, {
          date,
          studyDay: day,
          phase,
          sleepwearMaterial: '100% Polyester',
          sleepQuality110: 7,
          fabricComfort: 'Comfortable',
          recordedAt: (recordedAt ?? new Date()).toISOString(),
        }),
      ),
    );
  }
  await waitUntil(
    async () =>
      ((await service.deps.sql`select nights from admin_night_activity where user_id = ${userId}`)[0]?.nights ?? 0) === days.length &&
      (await service.deps.sql`select 1 from research_participants where user_id = ${userId}`).length === 1,
    'nights counted',
  );
}

async function writeEntry(userId: string, writtenAt = new Date()) {
  await service.producers.publish(
    testEnvelope('journal.entry.written', {
      entryId: randomUUID(),
      userId,
      date: calendarDateIn(ZONE, writtenAt),
      writtenAt: writtenAt.toISOString(),
    }),
  );
}

const admin = randomUUID();
const asAdmin = bearer(admin, 'admin');
const get = (url: string, headers: Record<string, string> = asAdmin) => service.app.inject({ method: 'GET', url, headers });
/** One page of a list: its items and the next page's cursor (X-Next-Cursor), null on the last. */
async function page<T>(url: string, headers?: Record<string, string>): Promise<{ items: T[]; next: string | null }> {
  const response = await get(url, headers);
  expect(response.statusCode, response.body).toBe(200);
  const next = response.headers['x-next-cursor'];
  return { items: response.json() as T[], next: typeof next === 'string' ? next : null };
}
const users = (query: string) => page<AdminUserList[number]>(`/api/admin/users?${query}`);
const audit = (query = '') => page<AdminAuditList[number]>(`/api/admin/audit?${query}`);

describe('who may call the admin routes', () => {
  const routes = [
    '/api/admin/stats',
    '/api/admin/users',
    `/api/admin/user/${randomUUID()}`,
    '/api/admin/export/users',
    '/api/admin/export/sleep',
    '/api/admin/audit',
  ];
  it.each(routes)('%s: 401 signed out, 403 for a participant', async (url) => {
    expect((await get(url, {})).statusCode).toBe(401);
    const refused = await get(url, bearer(randomUUID()));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('forbidden');
  });

  it('her own access log: 401 signed out', async () => {
    expect((await get('/api/research/audit/me', {})).statusCode).toBe(401);
  });

  it('answers 400 with a message for a bad query, 404 for no such user', async () => {
    const bad = await get('/api/admin/users?sort=age');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/sort/);
    expect((await get('/api/admin/users?limit=0')).json().message).toMatch(/limit must be at least 1/);
    expect((await get('/api/admin/export/everything')).statusCode).toBe(400);
    for (const url of ['/api/admin/audit?cursor=nonsense', '/api/research/audit/me?cursor=nonsense', '/api/admin/users?cursor=nonsense']) {
      const refused = await get(url);
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().message).toBe('cursor is not one this server gave: start again without it');
    }
    expect((await get(`/api/admin/user/${randomUUID()}`)).statusCode).toBe(404);
    expect((await get('/api/admin/user/not-a-uuid')).json().message).toBe('No such user.');
  });
});

describe('statistics', () => {
  it('counts users, sleep logs, journal entries, and users active in the last 7 days', async () => {
    const before = (await get('/api/admin/stats')).json();
    const lastWeek = new Date(Date.now() - 10 * 86_400_000);
    const active = await addUser({ lastName: `Stats${randomUUID().slice(0, 6)}` });
    const quiet = await addUser({ lastName: `Stats${randomUUID().slice(0, 6)}` });
    const writer = await addUser({ lastName: `Stats${randomUUID().slice(0, 6)}` });
    await logNights(active, 3, [1, 2]);
    await logNights(quiet, 20, [1], lastWeek);
    await writeEntry(quiet, lastWeek);
    await writeEntry(writer);
    await waitUntil(
      async () =>
        (await service.deps.sql`select 1 from admin_journal_activity where user_id in ${service.deps.sql([quiet, writer])}`).length === 2,
      'entries counted',
    );
    const after = (await get('/api/admin/stats')).json();
    expect(after.totalUsers - before.totalUsers).toBe(3);
    expect(after.totalSleepLogs - before.totalSleepLogs).toBe(3);
    expect(after.totalJournalEntries - before.totalJournalEntries).toBe(2);
    expect(after.activeUsers - before.activeUsers).toBe(2); // active (a night) and writer (an entry), not quiet
    expect(after.activeDays).toBe(7);
  });
});

describe('the user list', () => {
  const tag = `Lst${randomUUID().slice(0, 8)}`;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    // five participants of one cohort (the tag), each in another state
    ids.faithful = await addUser({ firstName: 'Faith', lastName: tag, registeredAt: new Date(Date.now() - 10 * 86_400_000) });
    ids.lapsed = await addUser({ firstName: 'Lapse', lastName: tag, registeredAt: new Date(Date.now() - 20 * 86_400_000) });
    ids.washout = await addUser({ firstName: 'Wanda', lastName: tag, email: `W_100%.${tag}@Example.com` });
    ids.member = await addUser({ firstName: 'Mona', lastName: tag, dateOfBirth: null });
    ids.done = await addUser({ firstName: 'Dora', lastName: tag });
    await logNights(ids.faithful, 9, [1, 2, 3, 4, 5, 6, 7, 8, 9]); // day 10: 9 of 9 due
    await logNights(ids.lapsed, 9, [1, 2, 3, 4, 5]); // day 10: 5 of 9, last night 5 days ago
    await logNights(ids.washout, 19, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21]); // day 20 is today: tonight and tomorrow logged ahead
    await logNights(ids.done, 60, [1, 2, 3, 41, 42]);
  });

  it('searches names and e-mails (case-insensitive, % and _ as letters) and pages on the server', async () => {
    const first = await users(`q=${tag.toLowerCase()}&limit=2&sort=name&order=asc`);
    expect(first.items.map((u) => u.firstName)).toEqual(['Dora', 'Faith']);
    const second = await users(`q=${tag}&limit=2&sort=name&order=asc&cursor=${first.next}`);
    expect(second.items.map((u) => u.firstName)).toEqual(['Lapse', 'Mona']);
    const third = await users(`q=${tag}&limit=2&sort=name&order=asc&cursor=${second.next}`);
    expect(third.items.map((u) => u.firstName)).toEqual(['Wanda']);
    expect(third.next).toBeNull();
    expect((await users(`q=${encodeURIComponent(`w_100%.${tag}`)}`)).items.map((u) => u.id)).toEqual([ids.washout]);
    expect((await users(`q=${encodeURIComponent(`w__100%.${tag}`)}`)).items).toEqual([]);
    expect((await users(`q=${encodeURIComponent(`Faith ${tag}`)}`)).items.map((u) => u.id)).toEqual([ids.faithful]);
  });

  it('shows the spec columns, both compliances, the phase, the day and the last log', async () => {
    const { items } = await users(`q=${tag}&sort=name&order=asc`);
    const byName = Object.fromEntries(items.map((u) => [u.firstName, u]));
    expect(byName.Faith).toMatchObject({
      lastName: tag,
      age: expect.any(Number),
      hormonalStage: 'Menopause',
      sleepLogCount: 9,
      journalEntryCount: 0,
      compliancePercent: 90, // 9 logs in 10 days since joining
      lastLogDate: addDays(tonight(), -1),
      daysSinceLastLog: 1,
      study: { day: 10, phase: 'polyester', dayInPhase: 10, nightsElapsed: 9, nightsLogged: 9, compliancePercent: 100 },
    });
    expect(byName.Lapse!.study).toMatchObject({ nightsElapsed: 9, nightsLogged: 5, compliancePercent: 56 });
    expect(byName.Lapse!.daysSinceLastLog).toBe(5);
    // day 20: nights 1-19 are due; tonight's and tomorrow's, logged ahead, are not counted yet
    expect(byName.Wanda!.study).toMatchObject({ day: 20, phase: 'washout', dayInPhase: 6, nightsElapsed: 19, nightsLogged: 18 });
    expect(byName.Wanda!.sleepLogCount).toBe(20);
    expect(byName.Wanda!.daysSinceLastLog).toBe(-1); // her last night is tomorrow's, logged ahead
    expect(byName.Dora!.study).toMatchObject({ phase: 'completed', phaseName: 'Study Complete', nightsElapsed: 42, nightsLogged: 5 });
    expect(byName.Mona).toMatchObject({ study: null, age: null, sleepLogCount: 0, compliancePercent: 0, lastLogDate: null });
  });

  it('leaves out of study compliance the three nights she may log ahead between midnight and 04:00', async () => {
    const lastName = `Ahead${randomUUID().slice(0, 8)}`;
    const nell = await addUser({ firstName: 'Nell', lastName });
    const olga = await addUser({ firstName: 'Olga', lastName });
    await logNights(nell, 10, [2, 3, 4]); // not her first night
    await logNights(olga, 10, [1, 2, 3, 4]);
    const start = addDays(tonight(), -10);
    // 01:00 on the third calendar day of their study: the current night is still the
    // second's (it ends at 04:00), so only night 1 is due; nights 2 and 3, and tomorrow's
    // (4, the latest study takes), are logged ahead
    const oneAm = new Date(nightEndTime(ZONE, addDays(start, 1)) - 3 * 3_600_000);
    const { items } = await listUsers(service.deps.sql, oneAm, { q: lastName, sort: 'name', order: 'asc', limit: 10 });
    expect(items.map((u) => [u.firstName, u.study])).toEqual([
      ['Nell', expect.objectContaining({ day: 2, nightsElapsed: 1, nightsLogged: 0, compliancePercent: 0 })],
      ['Olga', expect.objectContaining({ day: 2, nightsElapsed: 1, nightsLogged: 1, compliancePercent: 100 })],
    ]);
  });

  it('sorts by study compliance and by last log, the not enrolled last', async () => {
    const byCompliance = await users(`q=${tag}&sort=compliance&order=desc`);
    expect(byCompliance.items.map((u) => u.firstName)).toEqual(['Faith', 'Wanda', 'Lapse', 'Dora', 'Mona']);
    const ascending = await users(`q=${tag}&sort=compliance&order=asc`);
    expect(ascending.items.map((u) => u.firstName)).toEqual(['Dora', 'Lapse', 'Wanda', 'Faith', 'Mona']);
    const byLastLog = await users(`q=${tag}&sort=lastLog&order=desc`);
    expect(byLastLog.items.map((u) => u.firstName)).toEqual(['Wanda', 'Faith', 'Lapse', 'Dora', 'Mona']);
    const byJoined = await users(`q=${tag}&sort=joined&order=asc`);
    expect(byJoined.items.slice(0, 2).map((u) => u.firstName)).toEqual(['Lapse', 'Faith']);
  });

  it('filters by study phase and finds who has not logged for 3 days or more', async () => {
    expect((await users(`q=${tag}&phase=polyester&sort=name&order=asc`)).items.map((u) => u.firstName)).toEqual(['Faith', 'Lapse']);
    expect((await users(`q=${tag}&phase=washout`)).items.map((u) => u.firstName)).toEqual(['Wanda']);
    expect((await users(`q=${tag}&phase=completed`)).items.map((u) => u.firstName)).toEqual(['Dora']);
    expect((await users(`q=${tag}&phase=not_enrolled`)).items.map((u) => u.firstName)).toEqual(['Mona']);
    // ongoing only: Dora finished the study, Mona never joined it
    expect((await users(`q=${tag}&notLogged=true`)).items.map((u) => u.firstName)).toEqual(['Lapse']);
    expect((await users(`q=${tag}&notLogged=false`)).items).toHaveLength(5);
  });

  it('follows up one who missed nights and then logged tonight’s or tomorrow’s ahead (the nights before are still missing)', async () => {
    const ahead = `Ahd${randomUUID().slice(0, 8)}`;
    const skipped = await addUser({ firstName: 'Skip', lastName: ahead });
    const kept = await addUser({ firstName: 'Kept', lastName: ahead });
    // day 11 is tonight: nights 8-10 missed, then tonight's and tomorrow's logged ahead
    await logNights(skipped, 10, [1, 2, 3, 4, 5, 6, 7, 11, 12]);
    // every ended night logged, and tonight's ahead
    await logNights(kept, 10, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const listed = await users(`q=${ahead}&sort=name&order=asc`);
    expect(listed.items.map((u) => [u.firstName, u.lastLogDate, u.daysSinceLastLog, u.followUp])).toEqual([
      ['Kept', tonight(), 0, false],
      ['Skip', addDays(tonight(), 1), -1, true],
    ]);
    expect((await users(`q=${ahead}&notLogged=true`)).items.map((u) => u.firstName)).toEqual(['Skip']);
  });

  it('sorts by last log one in the study who has logged no night from the eve of her start, not among those never enrolled', async () => {
    const since = `Snc${randomUUID().slice(0, 8)}`;
    const old = await addUser({ firstName: 'Olive', lastName: since });
    const never = await addUser({ firstName: 'Nina', lastName: since });
    const recent = await addUser({ firstName: 'Rita', lastName: since });
    const outside = await addUser({ firstName: 'Opal', lastName: since });
    await logNights(old, 20, [1, 2, 3, 4, 5, 6, 7, 8, 9]); // last night 12 nights before tonight
    await logNights(never, 5, []); // started 5 nights ago, none logged: counted from 6 nights before tonight
    await logNights(recent, 3, [1, 2, 3]); // last night
    const ascending = await users(`q=${since}&sort=lastLog&order=asc`);
    expect(ascending.items.map((u) => u.firstName)).toEqual(['Olive', 'Nina', 'Rita', 'Opal']);
    expect(ascending.items[1]).toMatchObject({ lastLogDate: null, followUp: true });
    const descending = await users(`q=${since}&sort=lastLog&order=desc`);
    expect(descending.items.map((u) => u.id)).toEqual([recent, never, old, outside]);
  });

  it('counts a night as due once it has ended, at 04:00 her time, as her home page does', async () => {
    const owl = `Owl${randomUUID().slice(0, 8)}`;
    const userId = await addUser({ firstName: 'Nell', lastName: owl });
    await logNights(userId, 9, [1, 2, 3, 4, 5, 6, 7, 8]); // nights 1-8 of a study that started 9 nights ago
    const start = addDays(tonight(), -9);
    // the night of study day 10 ends at 04:00 on the calendar date of day 11
    const ends = nightEndTime(ZONE, addDays(start, 9));
    const seen = async (now: number) => {
      const { items } = await listUsers(service.deps.sql, new Date(now), { q: owl, sort: 'joined', order: 'desc', limit: 10 });
      return items[0]!;
    };
    // 03:59 on the morning of day 11: she is still in the night of day 10; nights 1-9 are due
    const before = await seen(ends - 60_000);
    expect(calendarDateIn(ZONE, new Date(ends - 60_000))).toBe(addDays(start, 10));
    expect(before.study).toMatchObject({ day: 10, nightsElapsed: 9, nightsLogged: 8, compliancePercent: 89 });
    expect(before.daysSinceLastLog).toBe(2);
    // 04:00: that night has ended too
    const after = await seen(ends);
    expect(after.study).toMatchObject({ day: 11, nightsElapsed: 10, nightsLogged: 8, compliancePercent: 80 });
    expect(after.daysSinceLastLog).toBe(3);
  });
});

describe('the user list, page after page (keyset)', () => {
  const tag = `Key${randomUUID().slice(0, 8)}`;
  const ids: Record<string, string> = {};
  const sameInstant = new Date(Date.now() - 30 * 86_400_000);
  beforeAll(async () => {
    // ties in every key: the same instant of joining, names equal but for case, the same
    // compliance, the same last night, and several with no compliance and no night at all
    ids.a = await addUser({ firstName: 'Tess', lastName: `Tie${tag}`, registeredAt: sameInstant });
    ids.b = await addUser({ firstName: 'tess', lastName: `TIE${tag}`, registeredAt: sameInstant });
    ids.c = await addUser({ firstName: 'Tess', lastName: `Tie${tag}`, registeredAt: sameInstant });
    // to the microsecond, as PostgreSQL keeps it (a cursor cut to the millisecond would skip the rest of the tie)
    await service.deps.sql`
      update user_directory set registered_at = registered_at + interval '123 microseconds'
      where user_id in ${service.deps.sql([ids.a, ids.b, ids.c])}`;
    ids.d = await addUser({ firstName: 'Cora', lastName: `Tie${tag}`, registeredAt: new Date(Date.now() - 40 * 86_400_000) });
    ids.e = await addUser({ firstName: 'Zia', lastName: `Tie${tag}` });
    ids.f = await addUser({ firstName: 'Bea', lastName: `Tie${tag}` });
    ids.g = await addUser({ firstName: 'Ana', lastName: `Tie${tag}` });
    await logNights(ids.a, 9, [1, 2, 3, 4, 5]); // 5 of 9, last night on day 5
    await logNights(ids.b, 9, [1, 2, 3, 4, 5]); // the same
    await logNights(ids.d, 9, [1, 2, 3, 4, 5, 6, 7, 8, 9]); // 9 of 9
    await logNights(ids.e, 0, []); // enrolled today: no night due yet, no compliance
    // c, f and g: not enrolled, never logged
  });

  const sorts = ['joined', 'name', 'compliance', 'lastLog'].flatMap((sort) => [`${sort}&order=desc`, `${sort}&order=asc`]);
  it.each(sorts)('sort=%s: every user once, in the order of the whole list, while others join', async (sortAndOrder) => {
    const query = `q=${tag}&sort=${sortAndOrder}`;
    const whole = await users(`${query}&limit=100`);
    expect(whole.next).toBeNull();
    expect(whole.items.length).toBeGreaterThanOrEqual(7);
    const paged: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next = await users(`${query}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(next.items.length).toBeLessThanOrEqual(2);
      paged.push(...next.items.map((u) => u.id));
      cursor = next.next;
      expect(pages, 'pages').toBeLessThan(20);
      // someone joins between two pages (first, last or anywhere in the order)
      if (++pages <= 2) await addUser({ firstName: pages === 1 ? 'Aaron' : 'Tess', lastName: `Tie${tag}` });
    } while (cursor);
    expect(new Set(paged).size).toBe(paged.length); // no one twice
    const known = new Set(whole.items.map((u) => u.id));
    expect(paged.filter((id) => known.has(id))).toEqual(whole.items.map((u) => u.id)); // no one missed, in order
  });

  it('orders by the keys it shows: compliance and last log going down, those without one last; names case-insensitive', async () => {
    const down = (await users(`q=${tag}&sort=compliance&order=desc&limit=100`)).items;
    const ratios = down.map((u) => (u.study && u.study.nightsElapsed > 0 ? u.study.nightsLogged / u.study.nightsElapsed : null));
    const keyed = ratios.filter((r) => r !== null);
    expect(keyed).toEqual([...keyed].sort((x, y) => y - x));
    expect(ratios.slice(keyed.length).every((r) => r === null)).toBe(true);
    expect(down.slice(0, 3).map((u) => u.id)).toEqual([ids.d, ...[ids.a, ids.b].sort().reverse()]); // ties: by id, going down too
    const up = (await users(`q=${tag}&sort=compliance&order=asc&limit=100`)).items;
    expect(up.slice(0, 3).map((u) => u.id)).toEqual([...[ids.a, ids.b].sort(), ids.d]);
    expect(up.slice(3).every((u) => u.study?.compliancePercent == null)).toBe(true);

    // (e, enrolled today with no night, counts from the eve of her start: last night, as d's)
    const lastLog = (await users(`q=${tag}&sort=lastLog&order=asc&limit=100`)).items;
    expect(lastLog.slice(0, 4).map((u) => u.id)).toEqual([...[ids.a, ids.b].sort(), ...[ids.d, ids.e].sort()]);
    expect(lastLog.slice(4).every((u) => u.lastLogDate === null && u.study === null)).toBe(true);

    const namesakes = [ids.a, ids.b, ids.c];
    const names = (await users(`q=${tag}&sort=name&order=asc&limit=100`)).items.filter((u) => namesakes.includes(u.id));
    expect(names.map((u) => u.id)).toEqual([...namesakes].sort());
  });

  it('refuses a cursor of another sort or direction, and clamps a large limit', async () => {
    const { next } = await users(`q=${tag}&sort=name&order=asc&limit=1`);
    for (const other of ['sort=name&order=desc', 'sort=joined&order=asc', 'sort=compliance&order=asc']) {
      const refused = await get(`/api/admin/users?q=${tag}&${other}&cursor=${next}`);
      expect(refused.statusCode, other).toBe(400);
      expect(refused.json().message).toBe('cursor is not one this server gave: start again without it');
    }
    const huge = await get('/api/admin/users?limit=100000');
    expect(huge.statusCode).toBe(200);
    expect(huge.json<unknown[]>().length).toBeLessThanOrEqual(100);
  });

  const order = async (userId: string) =>
    (
      await service.deps.sql<
        { last_night_date: string | null; compliance: number | null; phase: string; follow_up: boolean; compliance_on: string | null }[]
      >`
        select last_night_date::text as last_night_date, compliance, phase, follow_up, compliance_on::text as compliance_on
        from admin_user_order where user_id = ${userId}`
    )[0];
  /** As if her row were last computed yesterday, with other figures than today's. */
  const yesterdays = (userId: string, figures: { compliance: number; phase: string; follow_up: boolean }) =>
    service.deps.sql`
      update admin_user_order set compliance = ${figures.compliance}, phase = ${figures.phase}, follow_up = ${figures.follow_up},
        compliance_on = compliance_on - 1
      where user_id = ${userId}`;

  it('sorts by today’s compliance: one kept for another day is brought up to date first', async () => {
    await yesterdays(ids.d!, { compliance: 0, phase: 'polyester', follow_up: false });
    const down = (await users(`q=${tag}&sort=compliance&order=desc&limit=100`)).items;
    expect(down[0]!.id).toBe(ids.d);
    expect(await order(ids.d!)).toMatchObject({ compliance: 1, compliance_on: tonight() });
  });

  it('filters by today’s phase and follow-up: those kept for another day are brought up to date first', async () => {
    // today: polyester, to follow up (her last night was 5 days ago)
    await yesterdays(ids.a!, { compliance: 0.5, phase: 'linen', follow_up: false });
    expect((await users(`q=${tag}&phase=polyester&limit=100`)).items.map((u) => u.id)).toContain(ids.a);
    await yesterdays(ids.a!, { compliance: 0.5, phase: 'polyester', follow_up: false });
    expect((await users(`q=${tag}&notLogged=true&limit=100`)).items.map((u) => u.id)).toContain(ids.a);
    expect(await order(ids.a!)).toMatchObject({ phase: 'polyester', follow_up: true, compliance_on: tonight() });
  });

  it('keeps each key as her rows change: her time zone, her enrolment, her nights, her deletion', async () => {
    const userId = await addUser({ firstName: 'Uma', lastName: `Tie${tag}` });
    const timezone = async () => (await service.deps.sql`select timezone from admin_user_order where user_id = ${userId}`)[0]?.timezone;
    expect(await timezone()).toBe(ZONE);
    expect(await order(userId)).toEqual({
      last_night_date: null,
      compliance: null,
      phase: 'not_enrolled',
      follow_up: false,
      compliance_on: null,
    });
    // enrolled on day 5 of her study: 0 of 4 nights logged, none since the eve of her start
    // (the key "last log" sorts her by)
    await logNights(userId, 4, []);
    expect(await order(userId)).toEqual({
      last_night_date: addDays(tonight(), -5),
      compliance: 0,
      phase: 'polyester',
      follow_up: true,
      compliance_on: tonight(),
    });
    await logNights(userId, 4, [1, 2, 4]);
    expect(await order(userId)).toEqual({
      last_night_date: addDays(tonight(), -1),
      compliance: 0.75,
      phase: 'polyester',
      follow_up: false,
      compliance_on: tonight(),
    });
    await service.producers.publish(
      testEnvelope('identity.user.profile_updated', {
        userId,
        firstName: 'Uma',
        lastName: `Tie${tag}`,
        dateOfBirth: '1971-06-01',
        timezone: 'America/Los_Angeles',
        hormonalStage: 'Menopause',
        profileImageUrl: null,
        updatedAt: new Date().toISOString(),
      }),
    );
    await waitUntil(async () => (await timezone()) === 'America/Los_Angeles', 'her time zone followed');
    // her compliance is for her current night there (a date behind London's from 04:00 to 12:00 London time)
    expect((await order(userId))!.compliance_on).toBe(currentNight('America/Los_Angeles', new Date()));
    await service.producers.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    await waitUntil(async () => (await order(userId)) === undefined, 'her row gone');
  });
});

describe('a user’s detail and the audit trail', () => {
  it('shows her profile, consent and five latest nights, and records the read before sending it', async () => {
    const tag = `Det${randomUUID().slice(0, 8)}`;
    const userId = await addUser({ firstName: 'Rhea', lastName: tag });
    await logNights(userId, 9, [1, 2, 3, 4, 5, 6, 7]);
    const response = await get(`/api/admin/user/${userId}`);
    expect(response.statusCode).toBe(200);
    const detail = response.json() as AdminUserDetail;
    expect(detail).toMatchObject({ id: userId, timezone: ZONE, consent: true, sleepLogCount: 7 });
    expect(detail.sleepLogs.map((log) => log.date)).toEqual([7, 6, 5, 4, 3].map((day) => addDays(tonight(), day - 10)));
    expect(detail.sleepLogs[0]).toMatchObject({ sleepwearMaterial: '100% Polyester', sleepQuality110: 7, fabricComfort: 'Comfortable' });

    const [entry] = (await audit()).items;
    expect(entry).toMatchObject({ action: 'participant_viewed', subject: { id: userId, name: `Rhea ${tag}` }, actor: { id: admin } });
    const events = await service.deps
      .sql`select stream_id, data from events where type = 'AdminAuditRecorded' and data ->> 'subjectId' = ${userId}`;
    expect(events).toHaveLength(1);
    expect(events[0]!.stream_id).toBe(`admin_audit:${userId}:${entry!.id}`);

    const unknown = randomUUID();
    expect((await get(`/api/admin/user/${unknown}`)).statusCode).toBe(404);
    expect((await service.deps.sql`select 1 from admin_audit where subject_id = ${unknown}`).length).toBe(0);
  });

  it("dates an export's file on the admin's own calendar", async () => {
    // nine hours apart: from 15:00 to 24:00 UTC (in winter) their dates differ; the date
    // itself is exportFileName's (exports.unit.spec.ts), what this checks is whose zone it is
    for (const timezone of ['America/Los_Angeles', 'Europe/Paris'] as const) {
      const adminId = randomUUID();
      await service.producers.publish(
        testEnvelope('identity.user.registered', {
          userId: adminId,
          email: `admin.${adminId.slice(0, 8)}@example.com`,
          firstName: 'Ada',
          lastName: 'Admin',
          dateOfBirth: null,
          timezone,
          hormonalStage: null,
          profileImageUrl: null,
          role: 'admin',
          registeredAt: new Date().toISOString(),
        }),
      );
      await waitUntil(
        async () => (await service.deps.sql`select 1 from user_directory where user_id = ${adminId}`).length === 1,
        'registered',
      );
      const before = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date());
      const answer = await get('/api/admin/export/users', bearer(adminId, 'admin'));
      const after = new Intl.DateTimeFormat('en-CA', { timeZone: timezone }).format(new Date());
      expect(answer.statusCode).toBe(200);
      expect(
        [before, after].map((date) => `attachment; filename="users-${date}.csv"`),
        timezone,
      ).toContain(answer.headers['content-disposition']);
    }
  });

  it('exports users-*.csv and sleep-*.csv (BOM, RFC 4180, formulas neutralised), each export recorded', async () => {
    const tag = `Csv${randomUUID().slice(0, 8)}`;
    const risky = await addUser({ firstName: '=HYPERLINK("http://x","y")', lastName: `${tag}, Jr.` });
    await logNights(risky, 4, [1, 2, 3]);

    const usersCsv = await get('/api/admin/export/users');
    expect(usersCsv.statusCode).toBe(200);
    expect(usersCsv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(usersCsv.headers['content-disposition']).toBe(`attachment; filename="users-${new Date().toISOString().slice(0, 10)}.csv"`);
    expect([...usersCsv.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parse(usersCsv.rawPayload, { bom: true, columns: true }) as Record<string, string>[];
    const row = rows.find((r) => r.user_id === risky)!;
    expect(row).toMatchObject({
      first_name: `'=HYPERLINK("http://x","y")`,
      last_name: `${tag}, Jr.`,
      consent: 'yes',
      sleep_logs: '3',
      study_day: '5',
      phase: 'polyester',
      nights_elapsed: '4',
      nights_logged: '3',
      study_compliance_percent: '75',
    });
    expect(Object.keys(row)).not.toContain('research_id'); // the personal list cannot be joined to research files
    expect(usersCsv.body).toContain('\r\n');

    const sleepCsv = await get('/api/admin/export/sleep');
    expect(sleepCsv.headers['content-disposition']).toMatch(/filename="sleep-\d{4}-\d{2}-\d{2}\.csv"/);
    const nights = parse(sleepCsv.rawPayload, { bom: true, columns: true }) as Record<string, string>[];
    const [participant] = await service.deps.sql<{ research_id: string }[]>`
      select research_id from research_participants where user_id = ${risky}`;
    const researchId = participant!.research_id;
    expect(nights.filter((n) => n.research_id === researchId).map((n) => n.study_day)).toEqual(['1', '2', '3']);
    expect(Object.keys(nights[0]!)).toEqual(expect.arrayContaining(['research_id', 'date', 'sleep_quality_1_10', 'revisions']));
    for (const secret of [risky, tag, 'HYPERLINK', 'example.com']) expect(sleepCsv.body).not.toContain(secret);

    const { items } = await audit('limit=2');
    expect(items.map((e) => [e.action, e.subject, e.actor?.id])).toEqual([
      ['sleep_exported', null, admin],
      ['users_exported', null, admin],
    ]);
  });

  it('records no read for a HEAD (no data is sent): an export, a detail, a research download answer GET only', async () => {
    const someone = await addUser({ lastName: `Head${randomUUID().slice(0, 8)}` });
    const before = (await audit('limit=1')).items[0]?.id;
    for (const url of [
      '/api/admin/export/users',
      '/api/admin/export/sleep',
      `/api/admin/user/${someone}`,
      '/api/admin/research/latest/download',
      `/api/admin/research/runs/${randomUUID()}/download`,
    ]) {
      const head = await service.app.inject({ method: 'HEAD', url, headers: asAdmin });
      expect([url, head.statusCode]).toEqual([url, 404]);
    }
    expect((await audit('limit=1')).items[0]?.id).toBe(before);
    // GET still answers (and records)
    expect((await get('/api/admin/export/users')).statusCode).toBe(200);
    expect((await audit('limit=1')).items[0]?.action).toBe('users_exported');
  });

  it('lists the trail newest first, a page at a time (X-Next-Cursor), a large limit clamped to 100', async () => {
    const userId = await addUser({ lastName: `Pg${randomUUID().slice(0, 8)}` });
    for (let i = 0; i < 3; i++) expect((await get(`/api/admin/user/${userId}`)).statusCode).toBe(200);
    const first = await audit('limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.next).toBeTruthy();
    const second = await audit(`limit=2&cursor=${first.next}`);
    expect(second.items[0]!.subject?.id).toBe(userId);
    const times = [...first.items, ...second.items].map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(new Set([...first.items, ...second.items].map((e) => e.id)).size).toBe(4);
    // every entry once, in the order of one long page, whatever the page size
    const whole = (await audit('limit=100')).items.map((e) => e.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const next = await audit(`limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      paged.push(...next.items.map((e) => e.id));
      cursor = next.next;
    } while (cursor && paged.length < whole.length);
    expect(paged.slice(0, whole.length)).toEqual(whole);
    expect((await audit('limit=100000')).items.length).toBeLessThanOrEqual(100);
  });

  it('records role changes from identity: who granted or revoked, and the command line as nobody', async () => {
    const granter = await addUser({ firstName: 'Grace', lastName: `Adm${randomUUID().slice(0, 6)}`, role: 'admin' });
    const userId = await addUser({ firstName: 'Nora', lastName: `Role${randomUUID().slice(0, 6)}` });
    const grant = testEnvelope('identity.user.role_granted', {
      userId,
      role: 'admin',
      grantedAt: new Date().toISOString(),
      grantedBy: granter,
    });
    await service.producers.publish(grant);
    await service.producers.publish(grant); // redelivered: recorded once
    await service.producers.publish(
      testEnvelope('identity.user.role_granted', {
        userId,
        role: 'participant',
        grantedAt: new Date(Date.now() + 1).toISOString(),
        grantedBy: null,
      }),
    );
    await waitUntil(
      async () => (await service.deps.sql`select 1 from admin_audit where subject_id = ${userId}`).length === 2,
      'roles recorded',
    );
    const mine = (await audit()).items.filter((e) => e.subject?.id === userId);
    expect(mine.map((e) => [e.action, e.actor?.name ?? null])).toEqual([
      ['role_revoked', null],
      ['role_granted', expect.stringMatching(/^Grace Adm/)],
    ]);
    expect(mine[0]!.actor).toBeNull(); // from the command line
    expect(mine.find((e) => e.action === 'role_granted')!.id).toBe(grant.id);
  });

  it('records an account an admin deleted: by whom, about nobody, once; not one deleted by herself', async () => {
    const deleter = await addUser({ firstName: 'Dana', lastName: `Del${randomUUID().slice(0, 6)}`, role: 'admin' });
    const [byAdmin, byHerself] = [
      await addUser({ lastName: `Gone${randomUUID().slice(0, 6)}` }),
      await addUser({ lastName: `Own${randomUUID().slice(0, 6)}` }),
    ];
    const deletion = testEnvelope('identity.user.deleted', {
      userId: byAdmin,
      deletedAt: new Date().toISOString(),
      via: 'admin',
      deletedBy: deleter,
    });
    await service.producers.publish(deletion);
    await service.producers.publish(deletion); // redelivered: recorded once
    const own = testEnvelope('identity.user.deleted', {
      userId: byHerself,
      deletedAt: new Date().toISOString(),
      via: 'self',
      deletedBy: null,
    });
    await service.producers.publish(own);
    await waitUntil(
      async () =>
        (await service.deps.sql`select 1 from user_directory where user_id in ${service.deps.sql([byAdmin, byHerself])}`).length === 0,
      'both deleted',
    );
    await waitUntil(async () => (await service.deps.sql`select 1 from admin_audit where id = ${deletion.id}`).length === 1, 'recorded');
    const entries = (await audit('limit=100')).items.filter((e) => e.action === 'account_deleted');
    expect(entries.filter((e) => e.id === deletion.id)).toEqual([
      {
        id: deletion.id,
        action: 'account_deleted',
        at: deletion.data.deletedAt,
        actor: { id: deleter, name: expect.stringMatching(/^Dana Del/), email: expect.any(String) },
        subject: { id: null, name: null, email: null },
        fileName: null,
      },
    ]);
    expect(entries.some((e) => e.id === own.id)).toBe(false);
    // nothing of hers in it: the entry names no one but the admin
    const left = await service.deps.sql`
      select 1 from events where stream_id like ${`%${byAdmin}%`} or data::text like ${`%${byAdmin}%`} or metadata::text like ${`%${byAdmin}%`}`;
    expect(left).toHaveLength(0);
  });

  it('shows her who read her data and which exports held it; none of anyone else’s', async () => {
    const otherAdmin = await addUser({ firstName: 'Ada', lastName: `Lovelace${randomUUID().slice(0, 4)}`, role: 'admin' });
    const her = await addUser({ lastName: `Me${randomUUID().slice(0, 8)}` });
    const someoneElse = await addUser({ lastName: `Else${randomUUID().slice(0, 8)}` });
    expect((await get(`/api/admin/user/${her}`, bearer(otherAdmin, 'admin'))).statusCode).toBe(200);
    expect((await get(`/api/admin/user/${someoneElse}`)).statusCode).toBe(200);
    expect((await get('/api/admin/export/users')).statusCode).toBe(200);
    expect((await get('/api/admin/export/sleep')).statusCode).toBe(200); // she has no night: not hers

    const { items, next } = await page<MyDataAccessList[number]>('/api/research/audit/me', bearer(her));
    expect(items.map((e) => [e.action, e.by])).toEqual([
      ['users_exported', null], // the test's admin has no directory row: an unknown (or deleted) admin
      ['participant_viewed', expect.stringMatching(/^Ada Lovelace/)],
    ]);
    expect(next).toBeNull();
    // a page at a time
    const first = await page<MyDataAccessList[number]>('/api/research/audit/me?limit=1', bearer(her));
    expect(first.items.map((e) => e.action)).toEqual(['users_exported']);
    const second = await page<MyDataAccessList[number]>(`/api/research/audit/me?limit=1&cursor=${first.next}`, bearer(her));
    expect(second.items.map((e) => e.action)).toEqual(['participant_viewed']);
  });

  /** The admin role granted to `userId` by the admin `grantedBy`, as identity publishes it, once recorded in the trail. */
  async function grantAdmin(userId: string, grantedBy: string): Promise<void> {
    const grant = testEnvelope('identity.user.role_granted', {
      userId,
      role: 'admin',
      grantedAt: new Date().toISOString(),
      grantedBy,
      via: 'admin',
    });
    await service.producers.publish(grant);
    await waitUntil(async () => (await service.deps.sql`select 1 from admin_audit where id = ${grant.id}`).length === 1, 'grant recorded');
  }

  it('forgets a deleted participant’s and a deleted admin’s name and id, keeping what admins did (in the audit and in the runs she asked for)', async () => {
    const formerAdmin = await addUser({ firstName: 'Olga', lastName: `Former${randomUUID().slice(0, 4)}`, role: 'admin' });
    const granter = await addUser({ firstName: 'Gita', lastName: `Granter${randomUUID().slice(0, 4)}`, role: 'admin' });
    const subject = await addUser({ lastName: `Gone${randomUUID().slice(0, 8)}` });
    const stays = await addUser({ lastName: `Stays${randomUUID().slice(0, 8)}` });
    expect((await get(`/api/admin/user/${subject}`, bearer(formerAdmin, 'admin'))).statusCode).toBe(200);
    expect((await get(`/api/admin/user/${stays}`, bearer(formerAdmin, 'admin'))).statusCode).toBe(200);
    // the admin role given to the participant who leaves: who gave it stays known
    await grantAdmin(subject, granter);
    const aboutSubject = (await audit('limit=100')).items.filter((e) => e.subject?.id === subject);
    expect(aboutSubject.map((e) => e.action)).toEqual(['role_granted', 'participant_viewed']);
    // a role she granted: it stays, by a deleted account (not the command line)
    await grantAdmin(stays, formerAdmin);
    // a research run she asked for: the run stays, asked for by nobody
    const run = await service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: bearer(formerAdmin, 'admin') });
    expect(run.statusCode).toBe(202);
    const runId = (run.json() as { id: string }).id;
    await waitUntil(
      async () =>
        (await service.deps.sql`select 1 from research_runs where id = ${runId} and status in ('finished', 'failed')`).length === 1,
      'the run done',
    );

    // an account she deleted: the entry stays, by a deleted account
    const removed = await addUser({ lastName: `Removed${randomUUID().slice(0, 8)}` });
    const removal = testEnvelope('identity.user.deleted', {
      userId: removed,
      deletedAt: new Date().toISOString(),
      via: 'admin',
      deletedBy: formerAdmin,
    });
    await service.producers.publish(removal);
    await waitUntil(
      async () => (await service.deps.sql`select 1 from admin_audit where id = ${removal.id}`).length === 1,
      'removal recorded',
    );

    for (const userId of [subject, formerAdmin]) {
      await service.producers.publish(testEnvelope('identity.user.deleted', { userId, deletedAt: new Date().toISOString() }));
    }
    await waitUntil(
      async () => (await service.deps.sql`select 1 from user_directory where user_id = ${formerAdmin}`).length === 0,
      'deleted',
    );
    for (const userId of [subject, formerAdmin]) {
      const left = await service.deps.sql`
        select 1 from events where stream_id like ${`%${userId}%`} or data::text like ${`%${userId}%`} or metadata::text like ${`%${userId}%`}`;
      expect(left).toHaveLength(0);
      expect(await service.deps.sql`select 1 from admin_audit where subject_id = ${userId} or actor_id = ${userId}`).toHaveLength(0);
    }
    expect(await service.deps.sql`select requested_by from research_runs where id = ${runId}`).toEqual([{ requested_by: null }]);
    expect((await audit('limit=100')).items.find((e) => e.id === removal.id)).toMatchObject({
      action: 'account_deleted',
      actor: { id: null, name: null, email: null },
    });
    const kept = (await audit('limit=100')).items.filter((e) => e.subject?.id === stays);
    expect(kept.map((e) => [e.action, e.actor])).toEqual([
      ['role_granted', { id: null, name: null, email: null }],
      ['participant_viewed', { id: null, name: null, email: null }],
    ]);
    // the entries about her stay, about a deleted account (her id gone from them, as checked above)
    const nobody = { id: null, name: null, email: null };
    const afterwards = (await audit('limit=100')).items;
    expect(aboutSubject.map((entry) => afterwards.find((e) => e.id === entry.id))).toEqual([
      {
        ...aboutSubject[0],
        subject: nobody,
        actor: { id: granter, name: expect.stringMatching(/^Gita Granter/), email: expect.any(String) },
      },
      { ...aboutSubject[1], subject: nobody, actor: nobody },
    ]);
    // in the events as in the read model: a rebuild gives the same
    const events = await service.deps.sql<{ stream_id: string; data: { subjectId: string | null } }[]>`
      select stream_id, data from events where type = 'AdminAuditRecorded' and data ->> 'auditId' in ${service.deps.sql(aboutSubject.map((e) => e.id))}`;
    expect(events.map((e) => [e.stream_id.replace(/[0-9a-f-]{36}$/, '<id>'), e.data.subjectId])).toEqual([
      ['admin_audit:all:<id>', null],
      ['admin_audit:all:<id>', null],
    ]);
  });

  /**
   * `act` (a request of an admin's) sent while her deletion, as the directory consumer makes
   * it, is done and not committed yet: it must wait for it (before, it did not: it found her
   * not deleted yet, and what it wrote, committed after the deletion had cleared her id,
   * kept it). `check` is given its answer once the deletion has committed; then her
   * deletion comes as identity's history has it (a rebuild replays it).
   */
  async function whileHerDeletionIsUnderWay<T>(leaving: string, act: () => Promise<T>, check: (answer: T) => Promise<void>): Promise<void> {
    const { sql } = service.deps;
    const gone = testEnvelope('identity.user.deleted', { userId: leaving, deletedAt: new Date().toISOString() });
    let release!: () => void;
    let done!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const deleted = new Promise<void>((resolve) => (done = resolve));
    const deletion = sql.begin(async (tx) => {
      await tx`delete from user_directory where user_id = ${leaving}`;
      await tx`insert into deleted_users (user_id, deleted_at) values (${leaving}, ${gone.time})`;
      await onUserDeleted(service.context, tx, leaving);
      done();
      await held;
    });
    await deleted;
    const answer = act();
    const waiting = async () =>
      (await sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`).length;
    await expect.poll(waiting, { timeout: 5_000 }).toBe(1);
    release();
    await deletion;
    await check(await answer);
    await service.producers.publish(gone);
    await waitUntil(
      async () => (await sql`select 1 from inbox where event_id = ${gone.id} and consumer = 'research-export-identity-users'`).length === 1,
      'her deletion applied again',
    );
  }

  it('records no entry naming an admin whose deletion is under way: it waits for it, then refuses', async () => {
    const { sql } = service.deps;
    const leaving = await addUser({ lastName: `Leaving${randomUUID().slice(0, 6)}`, role: 'admin' });
    const subject = await addUser({ lastName: `Subject${randomUUID().slice(0, 6)}` });
    await whileHerDeletionIsUnderWay(
      leaving,
      () => get(`/api/admin/user/${subject}`, bearer(leaving, 'admin')),
      async (view) => {
        expect(view.statusCode).toBe(401);
        expect(await sql`select 1 from admin_audit where actor_id = ${leaving}`).toHaveLength(0);
        expect(await sql`select 1 from events where data::text like ${`%${leaving}%`}`).toHaveLength(0);
      },
    );
  });

  it('queues no run for an admin whose deletion is under way: it waits for it, then refuses', async () => {
    const { sql } = service.deps;
    const leaving = await addUser({ lastName: `Leaving${randomUUID().slice(0, 6)}`, role: 'admin' });
    const runNow = () =>
      service.app.inject({ method: 'POST', url: '/api/admin/research/runs', headers: bearer(leaving, 'admin'), payload: {} });
    await whileHerDeletionIsUnderWay(leaving, runNow, async (answer) => {
      expect(answer.statusCode).toBe(401);
      expect(await sql`select 1 from research_runs where requested_by = ${leaving}`).toHaveLength(0);
      // and once she is gone, likewise at once
      expect((await runNow()).statusCode).toBe(401);
      expect(await sql`select 1 from research_runs where requested_by = ${leaving}`).toHaveLength(0);
    });
  });

  it("reads the audit trail's and the runs' events at a deletion only for one who made some", async () => {
    // a participant who never was an admin: her deletion's statements, recorded (rolled back)
    const userId = await addUser({ lastName: `Del${randomUUID().slice(0, 6)}` });
    await logNights(userId, 3, [1, 2]);
    expect((await get(`/api/admin/user/${userId}`)).statusCode).toBe(200); // an entry about her
    const { config } = service.deps;
    const statements: string[] = [];
    const recording = postgres(`${config.DATABASE_URL}/${databaseName(config, 'research-export')}`, {
      max: 1,
      onnotice: () => undefined,
      debug: (_connection, query) => void statements.push(query),
    });
    const rolledBack = new Error('rolled back');
    try {
      const ctx = createResearchExportContext({ config, sql: recording as never, logger: createLogger('test', 'silent') });
      await recording
        .begin(async (tx) => {
          await onUserDeleted(ctx, tx as never, userId);
          throw rolledBack;
        })
        .catch((err: unknown) => {
          if (err !== rolledBack) throw err;
        });
    } finally {
      await recording.end();
    }
    expect(statements.some((query) => query.includes('admin_audit'))).toBe(true);
    // every entry of the trail and every run was read for her id before
    expect(statements.filter((query) => /AdminAuditRecorded|RunRequested/.test(query))).toEqual([]);
  });

  it('rebuilds the dashboard’s read model to the same tables (activity counts, audit trail, the list’s order)', async () => {
    // admin_user_order is derived from the others, kept by their writers as they replay
    const order = () => snapshotTables(service.deps.sql, ['admin_user_order']);
    const orderBefore = await order();
    const { before, after } = await rebuildAndSnapshot(service);
    expect(after).toEqual(before);
    expect(await order()).toEqual(orderBefore);
    expect(orderBefore.admin_user_order!.length).toBeGreaterThan(5);
    expect(after.admin_audit!.length).toBeGreaterThan(5);
    expect(after.admin_night_activity!.length).toBeGreaterThan(5);
  });
});
